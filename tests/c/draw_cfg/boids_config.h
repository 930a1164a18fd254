/* boids_config.h for tests/c/draw_driver.c: just the display size. */
#ifndef BOIDS_CONFIG_H
#define BOIDS_CONFIG_H
#define BOIDS_WIDTH 320
#define BOIDS_HEIGHT 240
#endif
