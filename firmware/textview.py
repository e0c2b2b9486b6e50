# The box's whole state as text lines (every auction row, ASCII call names): the unix backend's
# screen file, which programs read (hardware/sim/boxes.py); and a render.Frame's picture as text
# for its terminal. Only the unix backend loads this module; what a board shows is render.Frame
# (hardware/display.md).
import calls
import entry as E
import font16
import render
import view as V

WIDTH = 16
VULS = ("-", "NS", "EW", "All")
AUCTION_HEAD = "W   N   E   S"  # the tablet's order (tablet_app/present.py)


def call_cell(view, i):
    f = view.auction[i]
    c = f & V.CALL_MASK
    s = calls.name(c) if c != calls.HIDDEN else "--"
    # one mark per call so a cell stays 4 characters: * alerted, ! stop shown, + both
    if f & V.F_ALERT and f & V.F_STOP:
        return s + "+"
    if f & V.F_ALERT:
        return s + "*"
    if f & V.F_STOP:
        return s + "!"
    return s


def status_line(view, now, ticks_diff):
    if not view.known:
        return "wait for tablet"
    if view.phase == V.WAITING:
        return "wait for board"
    if view.phase == V.FROZEN:
        return "DIRECTOR: wait"
    if view.phase == V.ENDED:
        return "AUCTION OVER"
    left = view.stop_left_ms(now, ticks_diff)
    if view.turn == view.seat:
        if left > 0:
            s = "STOP %d YOUR TURN" % ((left + 999) // 1000)
            return s if len(s) <= WIDTH else s.replace(" ", "", 1)
        return "YOUR TURN"
    if view.turn < 4:
        if left > 0:
            return "STOP %d %s to call" % ((left + 999) // 1000, V.SEATS[view.turn])
        return "%s to call" % V.SEATS[view.turn]
    return ""


def selection_line(view, ent):
    if view.sending != calls.NONE:
        # the call being confirmed stays in sight until the tablet has it (a new selection
        # waits underneath: another OK is refused meanwhile)
        return "> " + calls.name(view.sending) + " sending"
    if ent.sel != calls.NONE:
        s = "> " + calls.name(ent.sel) + " OK?"
        if view.lowest != calls.NONE and calls.stop_due(ent.sel, view.lowest, view.stop_jump, view.stop_opening2) and not ent.stop_given:
            s = s + " STOP?"
        return s
    if ent.level:
        return "> %d_" % ent.level
    if view.my_turn() and view.lowest != calls.NONE and calls.is_bid(view.lowest):
        return "> min " + calls.name(view.lowest)
    return ">"


def lines(view, ent, now, ticks_diff, link_up=True, version_error=False):
    out = []
    head = V.SEATS[view.seat] if view.seat < 4 else "?"
    if view.known and view.board:
        head = "%s Bd%d D%s V%s" % (head, view.board, V.SEATS[view.dealer], VULS[view.vul & 3])
    out.append(head[:WIDTH])
    if version_error:
        out.append("update firmware")  # the tablet speaks no protocol version we know
    elif not link_up:
        out.append(("no link " + status_line(view, now, ticks_diff))[:WIDTH])
    else:
        out.append(status_line(view, now, ticks_diff)[:WIDTH])
    note = E.NOTES[ent.note]
    sel = selection_line(view, ent)
    if note and note != "review" and view.sending == calls.NONE:
        sel = sel + " " + note if len(sel) + len(note) < WIDTH else note
    out.append(sel[:WIDTH])
    out.append(AUCTION_HEAD)
    if view.n:
        col = (view.dealer + 1) & 3  # W N E S: West's column is the first
        row = " " * 4 * col
        for i in range(view.n):
            cell = call_cell(view, i)
            row = row + (cell + "    ")[:4]
            col += 1
            if col == 4:
                out.append(row.rstrip())
                row = ""
                col = 0
        if row:
            out.append(row.rstrip())
    if view.msg:
        out.append(("~ " + view.msg)[:WIDTH])  # "~" keeps it apart from the auction rows
    return out


def glyph_char(g):
    """The character of font16 code g (capitals: the font has no lowercase)."""
    if g < 64:
        return chr(g + 32)
    if g < font16.CLUB:
        return font16.EXTRA[g - 64]
    if g <= font16.SPADE:
        return font16.SUITS[g - font16.CLUB]
    return "?"


def frame_rows(fr, ansi=False):
    """A render.Frame's picture as 4 text lines (suits as their characters), for a terminal: with
    ansi, inverted cells in reverse video; the two calls of an auction line a space apart, as
    the panel draws them."""
    out = []
    for r in range(render.ROWS):
        s = ""
        for i in range(r * render.WIDTH, r * render.WIDTH + render.WIDTH):
            if fr.slots and r >= 2 and i % render.WIDTH == render.SLOT:
                s += " "
            c = fr.shown[i]
            ch = glyph_char(c & 0x7F)
            s += "\x1b[7m" + ch + "\x1b[0m" if ansi and c & render.INV else ch
        out.append(s.rstrip())
    return out
