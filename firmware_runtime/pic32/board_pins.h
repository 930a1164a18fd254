/* board_pins.h - the board's wiring and clocks, with the ECE 4760 course
 * board as the default. Each macro can be overridden from boids_config.h
 * (generated from the spec), which is included first.
 *
 * Pins are given as a port letter and a bit (RB0 -> PORT B, BIT 0). PPS
 * (peripheral pin select) needs the pin's register/code pair from the
 * PIC32MX1xx/2xx datasheet DS60001168, table 11-1 (inputs) and 11-2
 * (outputs). The spec's pins are checked and their codes computed by
 * codegen/boards/pic32/pins.py; tests/test_pins.py holds these defaults to it. */
#ifndef BOIDSGEN_BOARD_PINS_H
#define BOIDSGEN_BOARD_PINS_H

#include "boids_config.h"

/* Clocks: FRC 8 MHz / 2 * 20 / 2 = 40 MHz (config bits in pic32_main.c),
 * peripheral bus divider 1. */
#ifndef BOARD_SYSCLK_HZ
#define BOARD_SYSCLK_HZ 40000000u
#endif
#ifndef BOARD_PBCLK_HZ
#define BOARD_PBCLK_HZ BOARD_SYSCLK_HZ
#endif

/* TFT on SPI1: SCK1 is fixed on RB14 (pin 25; DS60001168 table 3, not in
 * table 11-2); SDO1 is remapped. */
#ifndef BOARD_SPI_HZ
#define BOARD_SPI_HZ 20000000u /* the ILI9340's write cycle allows 10 MHz nominal; the lab runs 20 */
#endif
#ifndef BOARD_TFT_SDO_PPS_REG
#define BOARD_TFT_SDO_PPS_REG RPB11R /* SDO1 on RB11, pin 22 */
#endif
#ifndef BOARD_TFT_SDO_PPS_CODE
#define BOARD_TFT_SDO_PPS_CODE 3u /* SDO1 on RPB11: table 11-2 */
#endif
#ifndef BOARD_TFT_SDO_PORT
#define BOARD_TFT_SDO_PORT B
#define BOARD_TFT_SDO_BIT 11
#endif
#ifndef BOARD_TFT_SCK_PORT
#define BOARD_TFT_SCK_PORT B
#define BOARD_TFT_SCK_BIT 14
#endif
#ifndef BOARD_TFT_DC_PORT
#define BOARD_TFT_DC_PORT B /* RB0, pin 4 */
#define BOARD_TFT_DC_BIT 0
#endif
#ifndef BOARD_TFT_CS_PORT
#define BOARD_TFT_CS_PORT B /* RB1, pin 5 */
#define BOARD_TFT_CS_BIT 1
#endif
#ifndef BOARD_TFT_RST_PORT
#define BOARD_TFT_RST_PORT B /* RB2, pin 6 */
#define BOARD_TFT_RST_BIT 2
#endif

/* UART2 to the USB-serial cable: PPSInput(2, U2RX, RPA1),
 * PPSOutput(4, RPB10, U2TX). */
#ifndef BOARD_UART_RX_PPS_CODE
#define BOARD_UART_RX_PPS_CODE 0u /* U2RXR = 0: RPA1, table 11-1 */
#endif
#ifndef BOARD_UART_RX_PORT
#define BOARD_UART_RX_PORT A /* RA1, pin 3 */
#define BOARD_UART_RX_BIT 1
#endif
#ifndef BOARD_UART_TX_PPS_REG
#define BOARD_UART_TX_PPS_REG RPB10R /* RB10, pin 21 */
#endif
#ifndef BOARD_UART_TX_PPS_CODE
#define BOARD_UART_TX_PPS_CODE 2u /* U2TX on RPB10: table 11-2 */
#endif
#ifndef BOARD_UART_TX_PORT
#define BOARD_UART_TX_PORT B
#define BOARD_UART_TX_BIT 10
#endif
#ifndef BOARD_UART_BAUD
#define BOARD_UART_BAUD BOIDS_BAUD
#endif

/* Serial buffers (RAM): receive fills from the UART interrupt, transmit
 * drains into it, so replies do not stall the animation. Powers of two. */
#ifndef BOARD_RX_BUF
#define BOARD_RX_BUF 128u
#endif
#ifndef BOARD_TX_BUF
#define BOARD_TX_BUF 512u
#endif

/* Register names from a port letter: PIN_REG(LAT, B, SET) -> LATBSET. */
#define BOARD_REG_(kind, port, op) kind##port##op
#define BOARD_REG(kind, port, op) BOARD_REG_(kind, port, op)
#define BOARD_MASK(bit) (1u << (bit))

#endif
