/* an505_start.c - the vector table trace_main.c starts from on QEMU's
 * mps2-an505 (Cortex-M33, secure state: its SSRAM1 at 0x10000000, where
 * an505.ld places it). Reset turns the FPU on, as the pico-sdk's start-up
 * does for the RP2350 (-mfloat-abi=softfp code may use its registers), then
 * enters newlib's rdimon start-up (_start: the C library, then main with the
 * arguments semihosting carries); every fault
 * ends the program with status 70 instead of spinning, so QEMU exits. */
#include <stdint.h>
#include <unistd.h>

typedef void (*vector_t)(void);

extern void _start(void);
/* an505.ld's top of the stack: only its address is used (the table's first word), so it is declared
 * as the table's other entries are, which keeps the table an array of one type */
extern void __stack_top(void);

#define CPACR (*(volatile uint32_t *)0xE000ED88u) /* the coprocessor access control register */

static void fault(void) { _exit(70); }

static void reset(void)
{
    CPACR |= 0xFu << 20; /* CP10 and CP11 (the FPU): full access */
    __asm volatile("dsb\n\tisb" ::: "memory");
    _start();
}

__attribute__((section(".vectors"), used)) static const vector_t vectors[16] = {
    __stack_top, reset,
    fault, fault, fault, /* NMI, HardFault, MemManage */
    fault, fault, fault, /* BusFault, UsageFault, SecureFault */
};
