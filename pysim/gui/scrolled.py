"""A vertically scrolling frame: specs with many parameters (the rule
library's) still fit beside the canvas."""
from __future__ import annotations

import tkinter as tk
from tkinter import ttk


class ScrolledFrame(ttk.Frame):
    """Put children in `.inner`; scrolls once they are taller than max_height."""

    def __init__(self, parent: tk.Widget, max_height: int) -> None:
        super().__init__(parent)
        self.max_height = max_height
        self.canvas = tk.Canvas(self, highlightthickness=0, borderwidth=0)
        self.bar = ttk.Scrollbar(self, orient="vertical", command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.bar.set)
        self.inner = ttk.Frame(self.canvas)
        self._win = self.canvas.create_window(0, 0, window=self.inner, anchor="nw")
        self.canvas.pack(side="left", fill="both", expand=True)
        self.inner.bind("<Configure>", self._fit)
        for seq in ("<Button-4>", "<Button-5>", "<MouseWheel>"):
            self.bind_all(seq, self._wheel, add="+")

    def _fit(self, _e=None) -> None:
        w, h = self.inner.winfo_reqwidth(), self.inner.winfo_reqheight()
        self.canvas.configure(width=w, height=min(h, self.max_height), scrollregion=(0, 0, w, h))
        if h > self.max_height:
            self.bar.pack(side="right", fill="y")
        else:
            self.bar.pack_forget()

    def _wheel(self, e) -> None:
        over = self.winfo_containing(e.x_root, e.y_root)
        if over is None or not str(over).startswith(str(self)) or not self.bar.winfo_ismapped():
            return
        step = -2 if e.num == 4 or getattr(e, "delta", 0) > 0 else 2
        self.canvas.yview_scroll(step, "units")
