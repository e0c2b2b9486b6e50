# Call entry as a player expects from a bidding box: level, then denomination, then confirm.
# Nothing leaves the box before the confirm key: only a confirmed call is "made" (FSB L112C) and
# only made calls may be visible to others (FSB L112A), so a selection is shown on this box alone.
import calls
import keys
import view as V

# events the box sends (their wire codes belong to the protocol; app.py maps them)
EV_NONE = 0
EV_CALL = 1
EV_STOP = 2
EV_ALERT = 3
EV_UNDO = 4
EV_REVIEW = 5
EV_TD = 6

# feedback notes shown on the box's own display
N_NONE = 0
N_LEVEL_FIRST = 1
N_SELECT_FIRST = 2
N_NOT_TURN = 3
N_INSUFFICIENT = 4
N_NOT_ALLOWED = 5
N_STOP_WAIT = 6
N_NO_AUCTION = 7
N_SENT = 8
N_STOP_SENT = 9
N_ALERT_SENT = 10
N_UNDO_SENT = 11
N_TD_SENT = 12
N_REVIEW = 13
N_QUEUE_FULL = 14
N_ONE_IN_FLIGHT = 15

NOTES = ("", "level first", "select a call", "NOT YOUR TURN", "INSUFFICIENT",
         "not allowed now", "STOP: wait", "no auction", "sent", "STOP shown",
         "alert sent", "wrong card: TD", "TD called", "review", "WAIT: link busy",
         "wait: sending")

_REFUSAL_NOTE = (N_NONE, N_NOT_TURN, N_INSUFFICIENT, N_NOT_ALLOWED, N_STOP_WAIT, N_NO_AUCTION)


class CallEntry:
    def __init__(self):
        self.level = 0
        self.sel = calls.NONE
        self.stop_given = False
        self.review = False
        self.review_page = 0
        self.note = N_NONE
        self.out_kind = EV_NONE
        self.out_call = calls.NONE
        self.refused = calls.NONE  # the call the last refusal disarmed (shown with its note)

    def clear(self):
        self.level = 0
        self.sel = calls.NONE

    def press(self, key, view, now, ticks_diff):
        """Apply one key. Returns the event to send (EV_*), with out_call for EV_CALL."""
        self.out_kind = EV_NONE
        self.out_call = calls.NONE
        if keys.L1 <= key <= keys.L7:
            self.level = key
            self.sel = calls.NONE
            self.note = N_NONE
        elif keys.C <= key <= keys.NT:
            if self.level:
                self.sel = calls.bid(self.level, key - keys.C)
                self.note = N_NONE
            else:
                self.note = N_LEVEL_FIRST
        elif key == keys.PASS or key == keys.DBL or key == keys.RDBL:
            self.level = 0
            self.sel = key - keys.PASS  # PASS, DOUBLE, REDOUBLE are call indexes 0, 1, 2
            self.note = N_NONE
        elif key == keys.CLR:
            if self.review:
                self.review = False
            else:
                self.clear()
            self.note = N_NONE
        elif key == keys.OK:
            self._confirm(view, now, ticks_diff)
        elif key == keys.STOP:
            self.stop_given = True
            self.out_kind = EV_STOP
            self.note = N_STOP_SENT
        elif key == keys.ALERT:
            self.out_kind = EV_ALERT
            self.note = N_ALERT_SENT
        elif key == keys.UNDO:
            self.out_kind = EV_UNDO
            self.note = N_UNDO_SENT
        elif key == keys.TD:
            self.out_kind = EV_TD
            self.note = N_TD_SENT
        elif key == keys.REVIEW:
            if self.review:
                self.review_page += 1
            else:
                self.review = True
                self.review_page = 0
                self.out_kind = EV_REVIEW
            self.note = N_REVIEW
        return self.out_kind

    def _confirm(self, view, now, ticks_diff):
        if self.sel == calls.NONE:
            self.note = N_LEVEL_FIRST if self.level else N_SELECT_FIRST
            return
        why = view.check(self.sel, now, ticks_diff)
        # In `prevent` policy the box refuses the irregular call before anyone sees it. A stop
        # lock is refused in either policy when the tablet asks the box to enforce it. With no
        # state from the tablet the box cannot know the turn, so it refuses rather than guess.
        # A refused call is disarmed: the selection goes with the refusal, so no later OK (the
        # turn come round, the stop wait over) sends a call the player did not key again.
        refuse = why != V.OK and (view.prevent or why == V.NO_AUCTION
                                  or (why == V.STOP_WAIT and view.stop_lock))
        if refuse:
            self.note = _REFUSAL_NOTE[why]
            self.refused = self.sel
            self.clear()
            return
        self.out_kind = EV_CALL
        self.out_call = self.sel
        self.note = _REFUSAL_NOTE[why] if why != V.OK and why != V.STOP_WAIT else N_SENT
        self.clear()
        self.stop_given = False
