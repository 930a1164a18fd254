"""boids-gui: a tkinter window over the simulator or a board running the
generated firmware. codegen/commands/gui.py's `main` is the console script (it loads the spec); the other modules each
hold one part (controls, canvas drawing, the serial worker, pictures)."""
