/* boids_config.h for tests/c/draw_driver.c: just the panel size. */
#ifndef BOIDS_CONFIG_H
#define BOIDS_CONFIG_H
#define BOIDS_PANEL_WIDTH 320
#define BOIDS_PANEL_HEIGHT 240
#endif
