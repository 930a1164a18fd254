"""The boids-gui window (codegen/commands/gui.py opens it on a spec).

Simulator mode (default) runs the Python simulator live at the spec's frame
rate; Board mode (board_mode.py) sends every control change to a board (or
the host firmware on a pty), shows what it confirms, and draws the board's
flock as a lockstep mirror computes it, checked frame by frame.
"""
from __future__ import annotations

import time
import tkinter as tk
from decimal import Decimal
from pathlib import Path
from tkinter import filedialog, messagebox, ttk

from pysim.gui.board_mode import BoardMode
from pysim.gui.canvas_view import STYLES, FlockView
from pysim.gui.controls import ControlsPanel, Option
from pysim.gui.pointer import ENTER_ADDS, PointerAndKeys
from pysim.gui.scrolled import ScrolledFrame
from pysim.gui.stats import FrameStats

GIF_SECONDS = 4.0


class App(PointerAndKeys, BoardMode):
    def __init__(self, spec_path: str, loaded: tuple, save_defaults, root: tk.Tk | None = None, *,
                 scale: int | None = None,
                 style: str = "triangles", arith: str = "fixed", seed: int | None = None,
                 boids: int | None = None, order: str | None = None, port: str | None = None) -> None:
        from pysim.engine import Simulation

        self.spec_path = spec_path
        # from the generator (codegen/commands/gui.py): the runtime never imports it
        self.gen, self.model, note, self._tmp = loaded
        self._save_defaults = save_defaults
        self.sim = Simulation(self.model, arith, seed=seed, boids=boids, order=order)
        self.root = root or tk.Tk()
        if "clam" in ttk.Style(self.root).theme_names():
            ttk.Style(self.root).theme_use("clam")
        self.root.title(f"boids-gui: {self.model.SPEC_NAME} ({spec_path})")
        self.period = 1.0 / self.model.FRAME_RATE
        self.paused = False
        self.link = None  # BoardLink in board mode
        self.board_stats: dict | None = None
        self.shown = None  # the scene on the canvas
        self._held_until = 0.0  # a message keeps the status line until then
        self._actions = 0  # key and button presses so far (board_mode.status)
        self._error_until_action = -1  # an error keeps the status line through this action
        self.tuned: dict[str, str] = {}  # parameter -> the text the target accepted
        self.recorder = None
        self.stats = FrameStats()
        self._drag_target = False
        t = getattr(self.model, "TARGET", None)
        one = 1 << self.model.FRAC_BITS
        self._target_px = (t["x_raw"] / one, t["y_raw"] / one) if t else (0.0, 0.0)
        # hooks the tests replace to avoid modal dialogs
        self.ask_path = self._ask_path
        self.confirm = messagebox.askokcancel

        self._build(scale or max(1, min(3, 900 // self.model.WIDTH)), style, port, seed)
        self._bind_keys()
        for press in ("<KeyPress>", "<ButtonPress>"):
            self.root.bind_all(press, self._acted, add="+")
        if note:
            self.status(note, error=True)
        self._due = time.perf_counter()
        self._after = self.root.after(1, self._tick)
        self.root.protocol("WM_DELETE_WINDOW", self.close)

    # ---- layout ----
    def _build(self, scale: int, style: str, port: str | None, seed: int | None) -> None:
        r = self.root
        bar = ttk.Frame(r)
        bar.grid(row=0, column=0, columnspan=2, sticky="ew", padx=4, pady=(4, 0))
        self.mode = tk.StringVar(value="sim")
        for text, val in (("Simulator", "sim"), ("Board", "board")):
            ttk.Radiobutton(bar, text=text, value=val, variable=self.mode, command=self._mode_changed,
                            takefocus=0).pack(side="left")
        self.port = tk.StringVar(value=port or "")
        self.port_box = ttk.Combobox(bar, textvariable=self.port, width=16, postcommand=self._list_ports)
        self.port_box.pack(side="left", padx=(4, 8))
        self.port_box.bind("<Return>", lambda e: self._connect_if_board())
        ttk.Label(bar, text="Seed").pack(side="left")
        self.seed_var = tk.StringVar(value="" if seed is None else str(seed))
        ttk.Entry(bar, textvariable=self.seed_var, width=10).pack(side="left", padx=(4, 8))
        ttk.Separator(bar, orient="vertical").pack(side="left", fill="y", padx=4)
        ttk.Label(bar, text="Draw").pack(side="left")
        self.style = tk.StringVar(value=style)
        self.style_box = ttk.Combobox(bar, textvariable=self.style, values=STYLES, width=9, state="readonly")
        self.style_box.pack(side="left", padx=4)
        self.style_box.bind("<<ComboboxSelected>>", lambda e: self.view.set_style(self.style.get()))
        self.buttons = {}
        for name, text, cmd in (("pause", "Pause", self.toggle_pause), ("reset", "Reset flock", self.reset_flock),
                                ("png", "Save PNG", self.save_png), ("gif", "Record GIF", self.record_gif),
                                ("save", "Save to spec", self.save_to_spec)):
            b = ttk.Button(bar, text=text, command=cmd, takefocus=0)
            b.pack(side="left", padx=2)
            self.buttons[name] = b

        self.view = FlockView(r, self.model.WIDTH, self.model.HEIGHT, scale)
        self.view.set_style(style)
        self.view.canvas.grid(row=1, column=0, sticky="nw", padx=4, pady=4)
        c = self.view.canvas
        c.bind("<ButtonPress-1>", self._press)
        c.bind("<B1-Motion>", self._drag)
        c.bind("<ButtonRelease-1>", lambda e: setattr(self, "_drag_target", False))
        c.bind("<ButtonPress-3>", self._right_click)

        self.panel = ScrolledFrame(r, max_height=max(self.model.HEIGHT * scale + 40, 560))
        self.panel.grid(row=1, column=1, sticky="n", pady=4)
        self.controls = ControlsPanel(self.panel.inner, self.model.PARAMS, self.request_set, self._options())
        self.controls.pack(fill="both")

        self.stats_var = tk.StringVar()
        ttk.Label(r, textvariable=self.stats_var, font="TkFixedFont").grid(
            row=2, column=0, columnspan=2, sticky="w", padx=6)
        self.status_var = tk.StringVar(value="simulator")
        self.status_label = ttk.Label(r, textvariable=self.status_var)
        self.status_label.grid(row=3, column=0, columnspan=2, sticky="w", padx=6, pady=(0, 4))

    def _options(self) -> list[Option]:
        """Run-time options: the flock size now; any the model declares
        (model.OPTIONS: name, kind 'count'|'toggle', min, max, default,
        description) as the rule library adds them."""
        opts = [Option("boids", "flock size", "count", 0, self.model.CAPACITY, self.sim.count,
                       f"boids flying (the spec's capacity is {self.model.CAPACITY}); Enter adds "
                       f"{ENTER_ADDS}, Backspace removes one, a click adds one there", self.request_count)]
        if getattr(self.model, "TARGET", None):
            opts.append(Option("target", "target on", "toggle", 0, 1, int(bool(self.model.TARGET["active"])),
                               "the point the flock seeks; drag it on the canvas",
                               lambda v, done: self.request_target(on=bool(v), done=done)))
        for o in getattr(self.model, "OPTIONS", ()):
            opts.append(Option(o.name, o.name.replace("_", " "), o.kind, int(getattr(o, "min", 0)),
                               int(getattr(o, "max", 1)), int(o.default), getattr(o, "description", ""),
                               lambda v, done, _n=o.name: self.request_option(_n, v, done)))
        return opts

    # ---- requests from the controls ----
    def request_set(self, name: str, text: str) -> None:
        ctl = self.controls.params[name]

        def done(ok: bool, value: str) -> None:
            if ok:
                self.tuned[name] = text
                ctl.confirm(value)
                if self.link is not None:  # the preview follows the board
                    self.sim.params.set(name, value, allow_fixed=True)
            else:
                ctl.reject()
                self.status(f"{name}: rejected: {value}", error=True)

        if self.link is not None:
            self.link.set_param(name, text, done)
            return
        from pysim.params import ParamError

        try:
            self.sim.params.set(name, text)
        except ParamError as e:
            done(False, str(e))
            return
        done(True, self.sim.params.value_text(name))

    def request_count(self, n: int, done=None) -> None:
        def answer(ok: bool, got) -> None:
            if ok:
                self.sim.set_count(int(got))
            else:
                self.status(f"flock size: {got}", error=True)
            self.controls.options["boids"].confirm(int(got) if ok else self.count)

        n = max(0, min(int(n), self.model.CAPACITY))
        if self.link is not None:
            self.link.call("set_count", n, done=answer)
        else:
            answer(True, self.sim.set_count(n))

    def request_option(self, name: str, value: int, done) -> None:
        """A model-declared option: the engine's set_option in simulator mode,
        the option's serial command (`NAME VALUE`) on a board."""
        if self.link is not None:
            self.link.call("command", f"{name} {value}",
                           done=lambda ok, r: done(ok, value if ok else r))
        elif hasattr(self.sim, "set_option"):
            done(True, self.sim.set_option(name, value))
        else:
            done(False, "the engine has no set_option")

    # ---- buttons ----
    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.buttons["pause"].configure(text="Resume" if self.paused else "Pause")
        if self.link is not None:
            self.link.call("pause" if self.paused else "resume")

    def reset_flock(self) -> None:
        """Respawn with the seed field's seed (empty: the current one); on a
        board a new lockstep, the board's reset its sync point."""
        if self.link is not None:
            self.link.resync(self.seed_value())
        else:
            self.sim.reset(self.seed_value(), boids=self.sim.count)

    def _ask_path(self, kind: str) -> str | None:
        ext = {"png": ".png", "gif": ".gif"}[kind]
        return filedialog.asksaveasfilename(parent=self.root, defaultextension=ext,
                                            initialfile=f"{self.model.SPEC_NAME}{ext}",
                                            filetypes=[(kind.upper(), f"*{ext}")]) or None

    def save_png(self, path: str | None = None) -> Path | None:
        from pysim.gui.pictures import save_png

        path = path or self.ask_path("png")
        if not path:
            return None
        out = save_png(path, self.scene_now(), self.view.style, self.view.scale)
        self.status(f"saved {out}")
        return out

    def record_gif(self, path: str | None = None, seconds: float = GIF_SECONDS) -> None:
        from pysim.gui.pictures import GifRecorder

        path = path or self.ask_path("gif")
        if not path:
            return
        self.recorder = GifRecorder(path, seconds, self.model.FRAME_RATE, self.view.style, self.view.scale)
        self.buttons["gif"].state(["disabled"])
        self.status(f"recording {seconds:g} s to {path} ...")

    def changed_defaults(self) -> dict[str, str]:
        """Tuned values that differ from the spec's defaults."""
        defs = {p.name: p for p in self.model.PARAMS}
        return {n: t for n, t in self.tuned.items() if Decimal(t) != Decimal(defs[n].default)}

    def save_to_spec(self) -> dict[str, str] | None:
        values = self.changed_defaults()
        if not values:
            self.status("nothing to save: every parameter is at the spec's default")
            return None
        listing = "\n".join(f"{n}: {t}" for n, t in sorted(values.items()))
        if not self.confirm("Save to spec", f"Write these defaults into {self.spec_path}?\n\n{listing}"):
            return None
        try:
            self._save_defaults(self.spec_path, values)
        except (ValueError, OSError) as e:  # the spec writer's refusal is a ValueError
            self.status(f"not saved: {e}", error=True)
            return None
        self.status(f"saved {len(values)} default(s) to {self.spec_path}: run `boidsgen generate` "
                    f"(or `boidsgen build`) and flash")
        return values

    # ---- the frame loop ----
    def _tick(self) -> None:
        t0 = time.perf_counter()
        stepped = not self.paused and not self.board_mode  # in Board mode the mirror moves
        if stepped:
            self.sim.step()
        t1 = time.perf_counter()
        self.shown = scene = self.scene_now()
        self.view.draw(scene)
        t2 = time.perf_counter()
        self.stats.frame(t1 - t0 if stepped else None, t2 - t1, t2)
        if self.recorder is not None and not self.paused and self.recorder.add(scene):
            self.status(f"saved {self.recorder.path}")
            self.recorder = None
            self.buttons["gif"].state(["!disabled"])
        if self.stats.due(t2):
            self._show_stats()
            self._show_lockstep()
        self._due += self.period
        now = time.perf_counter()
        if self._due < now - self.period:  # behind: run flat out without catching up
            self._due = now
        self._after = self.root.after(max(1, int((self._due - now) * 1000)), self._tick)

    def _show_stats(self) -> None:
        s, sim, f = self.stats, self.shown_sim(), self.follow
        line = (f"{s.fps:5.1f} fps (spec {self.model.FRAME_RATE})  {sim.count:4d} boids  "
                f"t={sim.frame / self.model.FRAME_RATE:7.1f} s  "
                + (f"mirrored (seed {f.seed})  " if f is not None else
                   f"step {s.step_ms:6.1f} ms  ")
                + f"draw {s.draw_ms:5.1f} ms" + ("  PAUSED" if self.paused else ""))
        if self.link is not None:
            line += self.board_stats_text()
        self.stats_var.set(line)

    def close(self) -> None:
        self.disconnect()
        try:
            self.root.after_cancel(self._after)
        except tk.TclError:
            pass
        self.root.destroy()
        if self._tmp is not None:
            self._tmp.cleanup()
