"""The demo table: the tablet app and four virtual boxes, no hardware needed.

    python -m demo                   # Kivy tablet + four boxes, each in its own tmux pane
    python -m demo --headless        # a scripted session that prints what happens
    python -m demo --boxes rp2040    # the boxes on emulated RP2040s (make run BOXES=rp2040)

Both run the real parts: the box firmware on the MicroPython unix port, each box behind its own
pseudo-terminal of the simulated serial link (hardware/sim, 115200 baud timing), the tablet's
LinkMaster over pyserial, the laws engine, the journal and the result outbox. With no display
($DISPLAY unset) the windowed demo says so in one line and runs the headless one.

The demo sits above both `tablet_app` and `hardware` (it imports them; neither imports it):
`common.py` the session and the work folder, `station.py` the results station it starts,
`headless.py` the printed script, `windowed.py` the Kivy tablet with the boxes in tmux.
"""
