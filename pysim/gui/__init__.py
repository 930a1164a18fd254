"""boids-gui: a tkinter window over the simulator or a board running the
generated firmware. `app.main` is the console script; the other modules each
hold one part (controls, canvas drawing, the serial worker, pictures)."""
