"""`boidsgen budget --target rp2040` (its record's `budget`, codegen/boards/registry.py): whole frames
executed in rp2040js per flock size and seed, or with --profile where the cycles go."""
from __future__ import annotations


def budget_cli(a, err, failed) -> int:
    from codegen.drivers.rp2040.budget import measure, table
    from codegen.targets.rp2040.ram import ram_table

    seeds = list(dict.fromkeys(a.seeds or [1, 2, 3]))
    grids = {"spec": [False], "grid": [True], "both": [False, True]}[a.variant]
    if a.profile:  # where the cycles go: codegen/drivers/rp2040/profile.py
        from codegen.drivers.rp2040.profile import profile_lines, run_profile

        for grid in grids:
            for n in a.boids or ([1000] if grid else [400]):
                frames, skip = a.frames or 100, a.warmup or 0
                m, p = run_profile(a.spec, n, frames, seeds[0], grid, skip=skip)
                print("\n".join(profile_lines(m, p, n, frames, seeds[0], skip=skip)), flush=True)
        return 0
    for grid in grids:
        boids = a.boids or ([400, 600, 800, 1000] if grid else [100, 200, 300, 400])
        m, b, rows, bound = measure(a.spec, boids, a.frames or 1000, seeds, grid=grid, bound=True)
        print("\n".join(table(m, rows, seeds) + bound + ram_table(b.elf, m.spec.flock.capacity)), flush=True)
    return 0
