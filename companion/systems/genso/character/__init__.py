"""`genso` characters: the sheet and what is derived from it (:mod:`.core`), and one module
each for creation, gear, the shop, recovery and growth; callers import from the module that
defines a name.
"""
