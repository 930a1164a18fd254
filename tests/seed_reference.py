"""The seed's pseudocode (000, base flock), transcribed line by line in plain
Python floats, as the reference the float simulator is checked against.
The two known slips are corrected: both components scale by the same limit,
and a zero speed does not divide (the boid takes (minspeed, 0))."""
from __future__ import annotations

import math


def seed_step(boids, p, width=320, height=240):
    """boids: list of dicts x, y, vx, vy, updated in place, one after another."""
    for boid in boids:
        xpos_avg = ypos_avg = xvel_avg = yvel_avg = 0.0
        neighboring_boids = 0
        close_dx = close_dy = 0.0
        for other in boids:
            if other is boid:
                continue
            dx = boid["x"] - other["x"]
            dy = boid["y"] - other["y"]
            if abs(dx) < p["visual_range"] and abs(dy) < p["visual_range"]:
                squared_distance = dx * dx + dy * dy
                if squared_distance < p["protected_range"] ** 2:
                    close_dx += boid["x"] - other["x"]
                    close_dy += boid["y"] - other["y"]
                elif squared_distance < p["visual_range"] ** 2:
                    xpos_avg += other["x"]
                    ypos_avg += other["y"]
                    xvel_avg += other["vx"]
                    yvel_avg += other["vy"]
                    neighboring_boids += 1
        if neighboring_boids > 0:
            xpos_avg /= neighboring_boids
            ypos_avg /= neighboring_boids
            xvel_avg /= neighboring_boids
            yvel_avg /= neighboring_boids
            boid["vx"] = (boid["vx"] + (xpos_avg - boid["x"]) * p["centering_factor"]
                          + (xvel_avg - boid["vx"]) * p["matching_factor"])
            boid["vy"] = (boid["vy"] + (ypos_avg - boid["y"]) * p["centering_factor"]
                          + (yvel_avg - boid["vy"]) * p["matching_factor"])
        boid["vx"] += close_dx * p["avoid_factor"]
        boid["vy"] += close_dy * p["avoid_factor"]
        if boid["y"] < p["top_margin"]:
            boid["vy"] += p["turn_factor"]
        if boid["x"] > width - p["right_margin"]:
            boid["vx"] -= p["turn_factor"]
        if boid["x"] < p["left_margin"]:
            boid["vx"] += p["turn_factor"]
        if boid["y"] > height - p["bottom_margin"]:
            boid["vy"] -= p["turn_factor"]
        speed = math.sqrt(boid["vx"] ** 2 + boid["vy"] ** 2)
        if speed < p["min_speed"]:
            if speed == 0:
                boid["vx"], boid["vy"] = p["min_speed"], 0.0
            else:
                boid["vx"] = boid["vx"] / speed * p["min_speed"]
                boid["vy"] = boid["vy"] / speed * p["min_speed"]
        if speed > p["max_speed"]:
            boid["vx"] = boid["vx"] / speed * p["max_speed"]
            boid["vy"] = boid["vy"] / speed * p["max_speed"]
        boid["x"] += boid["vx"]
        boid["y"] += boid["vy"]
