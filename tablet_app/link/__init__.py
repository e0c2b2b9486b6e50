"""The tablet side of the box link: `LinkMaster` drives one serial port per seat with pyserial
and the protocol's own `TabletEndpoint` state machines (protocol/SPEC.md)."""
from tablet_app.link.master import BoxEvent, LinkMaster

__all__ = ["BoxEvent", "LinkMaster"]
