"""System `coc`: Call of Cthulhu 6th edition combat with the house rules of seeds 003 and 004.

Spec §3 (CO-… rule IDs). A pure engine: rules data (``rules``), BCDice Cthulhu rolls
(``checks``), investigator and foe sheets (``sheet``) and the fight tracker (package ``combat``).
"""
