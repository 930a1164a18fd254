/* draw.c - the drawing every platform layer shares: clipping, lines,
 * circles and text rasterised here, pixel sets drawn by difference (draw.h),
 * sent to draw_sink.h's pixel sink: the ILI9340 driver, whose bytes go to the
 * layer's tft_port_* (SPI on the PIC32, a decoded framebuffer on the host),
 * or the RP2040's 4-bit VGA framebuffer (fb4.h). One rasteriser, so the same
 * pixels on all. */
#include "boids_config.h"
#include "draw.h"
#include "font5x7.h"
#include "platform.h"
#include "draw_sink.h"

int draw_clip(int *x, int *y, int *w, int *h, int width, int height)
{
    /* 64-bit so that huge sizes cannot overflow x + w. */
    int64_t x0 = *x, y0 = *y, x1 = (int64_t)*x + *w, y1 = (int64_t)*y + *h;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > width) x1 = width;
    if (y1 > height) y1 = height;
    if (x1 <= x0 || y1 <= y0) return 0;
    *x = (int)x0;
    *y = (int)y0;
    *w = (int)(x1 - x0);
    *h = (int)(y1 - y0);
    return 1;
}

/* The pixel set other drawing may cover (pixset_init's). */
static pixset_t *active;

/* Shown pixels of the active set inside the clipped rectangle are covered. */
static void cover(int x, int y, int w, int h)
{
    const uint16_t *end;
    uint16_t *xs;
    int r;
    if (!active) return;
    xs = active->x[active->shown];
    end = active->end[active->shown];
    for (r = y; r < y + h; r++) {
        unsigned k;
        for (k = r ? end[r - 1] : 0u; k < end[r]; k++) {
            const int c = xs[k] & PIXSET_X;
            if (c >= x && c < x + w) xs[k] = (uint16_t)(xs[k] | PIXSET_OVER);
        }
    }
}

void plat_draw_pixel(int x, int y, uint16_t color)
{
    if (x < 0 || y < 0 || x >= BOIDS_PANEL_WIDTH || y >= BOIDS_PANEL_HEIGHT) return;
    cover(x, y, 1, 1);
    SINK_PIXEL(x, y, color);
}

void plat_fill_rect(int x, int y, int w, int h, uint16_t color)
{
    if (!draw_clip(&x, &y, &w, &h, BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT)) return;
    cover(x, y, w, h);
    SINK_FILL_RECT(x, y, w, h, color);
}

void plat_fill_screen(uint16_t color)
{
    if (active) { /* nothing of the set is left to erase */
        int r;
        for (r = 0; r < BOIDS_PANEL_HEIGHT; r++) active->end[active->shown][r] = 0;
    }
    SINK_FILL_RECT(0, 0, BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT, color);
}

void plat_blit(int x, int y, int w, int h, const uint16_t *px)
{
    int cx = x, cy = y, cw = w, ch = h;
    if (!draw_clip(&cx, &cy, &cw, &ch, BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT)) return;
    cover(cx, cy, cw, ch);
    SINK_BLIT(cx, cy, cw, ch, px + (cy - y) * w + (cx - x), w);
}

/* ---- pixel sets (draw.h) ---- */

void pixset_init(pixset_t *s, uint16_t *x0, uint16_t *x1, uint16_t *end0, uint16_t *end1, uint16_t color)
{
    int r;
    s->x[0] = x0;
    s->x[1] = x1;
    s->end[0] = end0;
    s->end[1] = end1;
    s->color = color;
    s->shown = 0;
    for (r = 0; r < BOIDS_PANEL_HEIGHT; r++) end0[r] = end1[r] = 0;
    active = s;
}

uint16_t *pixset_begin(pixset_t *s)
{
    uint16_t *end = s->end[s->shown ^ 1u];
    int r;
    for (r = 0; r < BOIDS_PANEL_HEIGHT; r++) end[r] = 0;
    return end;
}

/* Counts to each row's first slot; the second pass moves it to the row's end. */
uint16_t *pixset_place(pixset_t *s)
{
    uint16_t *end = s->end[s->shown ^ 1u];
    unsigned sum = 0;
    int r;
    for (r = 0; r < BOIDS_PANEL_HEIGHT; r++) {
        const unsigned c = end[r];
        end[r] = (uint16_t)sum;
        sum += c;
    }
    return s->x[s->shown ^ 1u];
}

void pixset_show(pixset_t *s)
{
    const uint8_t nw = s->shown ^ 1u;
    const uint16_t *const xo = s->x[s->shown], *const eo = s->end[s->shown], *const en = s->end[nw];
    uint16_t *const xn = s->x[nw];
    const uint16_t color = s->color;
    /* o and n walk both lists whole: a row's merge ends at the row's ends */
    const uint16_t *o = xo;
    uint16_t *n = xn;
    sink_run_t run;
    int r;
    SINK_BEGIN(&run);
    for (r = 0; r < BOIDS_PANEL_HEIGHT; r++) {
        const uint16_t *const o_end = xo + eo[r];
        uint16_t *const n_end = xn + en[r], *j;
        if (o == o_end && n == n_end) continue;
        for (j = n + 1; j < n_end; j++) { /* insertion sort: a row holds a few pixels */
            const uint16_t v = *j;
            uint16_t *i = j;
            while (i > n && i[-1] > v) {
                *i = i[-1];
                i--;
            }
            *i = v;
        }
        for (;;) { /* merge; a column twice in a list counts once (its copies skipped) */
            unsigned ox, nx;
            if (o == o_end) { /* the rest arrived */
                while (n != n_end) {
                    nx = *n;
                    SINK_PUT(&run, (int)nx, r, color);
                    do n++;
                    while (n != n_end && *n == nx);
                }
                break;
            }
            if (n == n_end) { /* the rest left */
                do {
                    ox = *o & PIXSET_X;
                    SINK_PUT(&run, (int)ox, r, PLAT_BLACK);
                    do o++;
                    while (o != o_end && (*o & PIXSET_X) == ox);
                } while (o != o_end);
                break;
            }
            ox = *o & PIXSET_X;
            nx = *n;
            if (ox < nx) { /* left: black */
                SINK_PUT(&run, (int)ox, r, PLAT_BLACK);
                do o++;
                while (o != o_end && (*o & PIXSET_X) == ox);
            } else if (nx < ox) { /* arrived */
                SINK_PUT(&run, (int)nx, r, color);
                do n++;
                while (n != n_end && *n == nx);
            } else { /* stayed: sent only if covered meanwhile */
                const unsigned over = *o & PIXSET_OVER;
                do o++;
                while (o != o_end && (*o & PIXSET_X) == ox);
                do n++;
                while (n != n_end && *n == nx);
                if (over) SINK_PUT(&run, (int)nx, r, color);
            }
        }
    }
    SINK_END(&run);
    s->shown = nw;
}

void pixset_erase(pixset_t *s)
{
    (void)pixset_begin(s); /* an empty next set: every shown pixel leaves */
    pixset_show(s);
}

/* Bresenham: one pixel per step along the major axis. */
void plat_draw_line(int x0, int y0, int x1, int y1, uint16_t color)
{
    int dx = x1 > x0 ? x1 - x0 : x0 - x1, sx = x0 < x1 ? 1 : -1;
    int dy = y1 > y0 ? y0 - y1 : y1 - y0, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        int e2;
        plat_draw_pixel(x0, y0, color);
        if (x0 == x1 && y0 == y1) break;
        e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

/* Midpoint circle, integers only. Each octant point is drawn once: the
 * axis and diagonal points, which two octants share, are not repeated
 * (fewer SPI bytes, same pixels). */
void plat_draw_circle(int cx, int cy, int r, uint16_t color)
{
    int x = r, y = 0, d = 1 - r;
    if (r < 0) return;
    if (r == 0) {
        plat_draw_pixel(cx, cy, color);
        return;
    }
    while (y <= x) {
        plat_draw_pixel(cx + x, cy + y, color);
        plat_draw_pixel(cx - x, cy - y, color);
        if (y != 0) {
            plat_draw_pixel(cx + x, cy - y, color);
            plat_draw_pixel(cx - x, cy + y, color);
        }
        if (x != y) {
            plat_draw_pixel(cx + y, cy + x, color);
            plat_draw_pixel(cx - y, cy - x, color);
            if (y != 0) {
                plat_draw_pixel(cx - y, cy + x, color);
                plat_draw_pixel(cx + y, cy - x, color);
            }
        }
        y++;
        if (d < 0) {
            d += 2 * y + 1;
        } else {
            x--;
            d += 2 * (y - x) + 1;
        }
    }
}

/* Disc: the pixels with dx^2 + dy^2 <= r^2 + r (the midpoint circle's
 * inside), one span per row; the half-width only shrinks as |dy| grows. */
void plat_fill_circle(int cx, int cy, int r, uint16_t color)
{
    long x, dy, lim;
    if (r < 0) return;
    if (r > 2 * (BOIDS_PANEL_WIDTH + BOIDS_PANEL_HEIGHT)) r = 2 * (BOIDS_PANEL_WIDTH + BOIDS_PANEL_HEIGHT); /* covers the screen anyway */
    lim = (long)r * r + r;
    x = r;
    for (dy = 0; dy <= r; dy++) {
        while (x * x + dy * dy > lim) x--;
        plat_fill_rect(cx - (int)x, cy + (int)dy, 2 * (int)x + 1, 1, color);
        if (dy != 0) plat_fill_rect(cx - (int)x, cy - (int)dy, 2 * (int)x + 1, 1, color);
    }
}

int plat_draw_text(int x, int y, const char *s, uint16_t fg, uint16_t bg)
{
    /* One glyph cell rendered into a small buffer, sent as one window. */
    uint16_t cell[PLAT_TEXT_CELL_W * PLAT_TEXT_CELL_H];
    int x_start = x, i, j;
    for (; *s; s++) {
        const uint8_t *g;
        if (*s == '\n') {
            x = x_start;
            y += PLAT_TEXT_CELL_H;
            continue;
        }
        g = font5x7_glyph(*s);
        for (j = 0; j < PLAT_TEXT_CELL_H; j++)
            for (i = 0; i < PLAT_TEXT_CELL_W; i++) {
                int on = j < FONT5X7_H && i < FONT5X7_W && ((g[j] >> (FONT5X7_W - 1 - i)) & 1u);
                cell[j * PLAT_TEXT_CELL_W + i] = on ? fg : bg;
            }
        plat_blit(x, y, PLAT_TEXT_CELL_W, PLAT_TEXT_CELL_H, cell);
        x += PLAT_TEXT_CELL_W;
    }
    return x;
}
