"""The camera tile reader: capture backends, the printed mat, the ONNX classifier, stable reads.

Heavy or hardware-only libraries (picamera2, onnxruntime) are imported inside
the backend that needs them, so importing this package works on any laptop.
"""
