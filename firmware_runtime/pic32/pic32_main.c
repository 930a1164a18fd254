/* pic32_main.c - the board's entry point: configuration bits, platform
 * start-up, then the lab's round-robin scheduler over the generated threads. */
#include "boids_app.h"
#include "boids_config.h"
#include "platform.h"

#ifdef __XC32__
/* 8 MHz FRC / 2 * 20 / 2 = 40 MHz system clock, peripheral bus at 40 MHz
 * (board_pins.h assumes both); no watchdog, no JTAG (RB pins stay free),
 * no secondary oscillator (RB4/RA4 stay free), PGEC1/PGED1 for the programmer,
 * PPS registers writable more than once, USBID/VBUSON pins as ports
 * (VBUSON shares RB14 with SCK1). */
#pragma config FNOSC = FRCPLL, POSCMOD = OFF, FPLLIDIV = DIV_2, FPLLMUL = MUL_20, FPLLODIV = DIV_2
#pragma config FPBDIV = DIV_1, FSOSCEN = OFF, FWDTEN = OFF, JTAGEN = OFF, ICESEL = ICS_PGx1
#pragma config IOL1WAY = OFF, PMDL1WAY = OFF, OSCIOFNC = OFF, FCKSM = CSDCMD, FUSBIDIO = OFF, FVBUSONIO = OFF
#pragma config PWP = OFF, BWP = OFF, CP = OFF
#endif

int main(void)
{
    plat_init();
    boids_app_reset(BOIDS_SEED, -1);
    for (;;) boids_app_run();
}
