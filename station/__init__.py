"""The results station: collects results, TD calls and auction logs from the table tablets and
hands them to the venue's scoring program (Data Connector, PBN, USEBIO) and the director page."""
__version__ = "0.1.0"
