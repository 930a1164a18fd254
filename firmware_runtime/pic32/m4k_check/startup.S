/* startup.S - reset code and interrupt vectors for the m4k compile/link
 * check only (XC32 links Microchip's crt0 and its own vector table).
 * Real parts start at 0xBFC00000 in boot flash; this image is measured,
 * not flashed, so everything sits in program flash at 0x9D000000. */
    .set noreorder
    .set noat

    .section .reset, "ax", @progbits
    .globl _reset
    .ent _reset
_reset:
    la      $sp, _stack_top
    /* copy .data from flash, clear .bss */
    la      $t0, _data_load
    la      $t1, _data_start
    la      $t2, _data_end
1:  beq     $t1, $t2, 2f
    nop
    lw      $t3, 0($t0)
    sw      $t3, 0($t1)
    addiu   $t0, $t0, 4
    b       1b
    addiu   $t1, $t1, 4
2:  la      $t1, _bss_start
    la      $t2, _bss_end
3:  beq     $t1, $t2, 4f
    nop
    sw      $zero, 0($t1)
    b       3b
    addiu   $t1, $t1, 4
4:  /* vectors at EBase = _ebase, 32 bytes apart; Cause.IV: use them */
    la      $t0, _ebase
    mtc0    $t0, $15, 1
    li      $t0, 0x20
    mtc0    $t0, $12, 1
    li      $t0, 0x00800000
    mtc0    $t0, $13
    /* Status: leave boot exception vectors and error level */
    mfc0    $t0, $12
    li      $t1, 0xFFBFFFF9
    and     $t0, $t0, $t1
    mtc0    $t0, $12
    ehb
    jal     main
    nop
5:  b       5b
    nop
    .end _reset

    /* Multi-vector mode: vector n at EBase + 0x200 + n * 0x20. */
    .section .vectors, "ax", @progbits
    .globl _ebase
_ebase:
    .org    0x200 + 8 * 0x20      /* _TIMER_2_VECTOR */
    j       pic32_timer2_isr
    nop
    .org    0x200 + 37 * 0x20     /* _UART_2_VECTOR */
    j       pic32_uart2_isr
    nop
