/* panel_view.h - where a world position lands on the panel.
 *
 * The world (BOIDS_WIDTH x BOIDS_HEIGHT, what the rules see) may be larger
 * than the ILI9340 (BOIDS_PANEL_WIDTH x BOIDS_PANEL_HEIGHT); the generator
 * then picks one ratio BOIDS_VIEW_MUL / 2^BOIDS_VIEW_SHIFT that fits it
 * (codegen/boards/pic32/panel.py; 1 / 2^0 when the world fits). Positions scale, shapes
 * and text do not. Integers only: a shift of the whole-pixel part, a
 * multiply below 2^12 (|px| <= 65536 keeps it under 2^28), a shift. */
#ifndef BOIDSGEN_PANEL_VIEW_H
#define BOIDSGEN_PANEL_VIEW_H

#include <stdint.h>

#include "boids_config.h"

/* A fixed-point world coordinate -> a panel pixel (floor, as codegen/boards/pic32/panel.py). */
#define PANEL_PX(v) ((int)((((int32_t)((v) >> FX_FRAC_BITS)) * BOIDS_VIEW_MUL) >> BOIDS_VIEW_SHIFT))

#endif
