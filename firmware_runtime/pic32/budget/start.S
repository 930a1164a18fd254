/* start.S - entry of the budget's m4k image under qemu-mipsel (Linux user
 * mode): qemu sets up the stack and zeroes .bss; call main, then exit(2)
 * with its result through the o32 system call 4001. */
    .set noreorder
    .text
    .globl __start
    .ent __start
__start:
    jal     main
    nop
    move    $a0, $v0
    li      $v0, 4001
    syscall
    nop
1:  b       1b
    nop
    .end __start
