/* blocks_plugin.c - a qemu TCG plugin for `boidsgen budget --frames`
 * (codegen/drivers/pic32/budget/runs.py): how often each translation block
 * ran, and how often it left by a taken branch, per segment between
 * executions of the marker block, for a whole run in one qemu process.
 *
 *   qemu-mipsel -plugin ./blocks_plugin.so,mark=0x400abc,counts=C,blocks=B IMAGE
 *
 * It is what codegen/drivers/pic32/budget/m4k_trace.py reads out of a
 * `-d in_asm,exec,nochain` log, without the log: a frame of 500 boids runs
 * ~100,000 blocks, so thousands of frames would log gigabytes.
 *
 * blocks (text): each block once, when first translated, as
 *   B <id> <instructions>
 *   0x<address>:  <disassembly>        (one line an instruction, qemu's)
 * counts (binary, little-endian uint32): at each execution of the marker
 * block, the segment that ends there: <k>, then k triplets <id> <runs>
 * <taken exits> of the blocks that ran in it. The first segment is what ran
 * before the first marker. Taken: the next block run did not start right
 * after this block's last instruction (m4k_trace.py's rule); the marker's
 * own block is not counted, and the block after it is not checked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

typedef struct {
    uint64_t start, end; /* end: the address after the last instruction */
    uint32_t id, n, runs, taken;
    int mark;
} block_t;

static FILE *counts_out, *blocks_out;
static uint64_t mark_addr;
static block_t **table; /* open addressing on (start, n) */
static size_t table_size, blocks_made;
static block_t **touched; /* the blocks run in this segment */
static size_t touched_n, touched_cap;
static block_t *prev;

static size_t slot_of(uint64_t start, uint32_t n)
{
    return (size_t)((start * 0x9E3779B97F4A7C15ull) ^ n) & (table_size - 1);
}

static void grow(void)
{
    block_t **old = table;
    size_t old_size = table_size, i;
    table_size = old_size ? old_size * 2 : 4096;
    table = calloc(table_size, sizeof *table);
    if (!table) abort();
    for (i = 0; i < old_size; i++) {
        if (old[i]) {
            size_t s = slot_of(old[i]->start, old[i]->n);
            while (table[s]) s = (s + 1) & (table_size - 1);
            table[s] = old[i];
        }
    }
    free(old);
}

static block_t *block_for(struct qemu_plugin_tb *tb)
{
    const uint64_t start = qemu_plugin_tb_vaddr(tb);
    const uint32_t n = (uint32_t)qemu_plugin_tb_n_insns(tb);
    size_t s, i;
    block_t *b;
    if (2 * (blocks_made + 1) > table_size) grow();
    for (s = slot_of(start, n); table[s]; s = (s + 1) & (table_size - 1))
        if (table[s]->start == start && table[s]->n == n) return table[s];
    b = calloc(1, sizeof *b);
    if (!b) abort();
    b->start = start;
    b->n = n;
    b->id = (uint32_t)blocks_made++;
    b->mark = start == mark_addr;
    table[s] = b;
    fprintf(blocks_out, "B %" PRIu32 " %" PRIu32 "\n", b->id, n);
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        char *text = qemu_plugin_insn_disas(insn);
        const uint64_t at = qemu_plugin_insn_vaddr(insn);
        fprintf(blocks_out, "0x%08" PRIx64 ":  %s\n", at, text ? text : "?");
        free(text);
        b->end = at + 4;
    }
    return b;
}

static void put(uint32_t w)
{
    fwrite(&w, sizeof w, 1, counts_out);
}

static void close_segment(void)
{
    size_t i;
    put((uint32_t)touched_n);
    for (i = 0; i < touched_n; i++) {
        block_t *b = touched[i];
        put(b->id);
        put(b->runs);
        put(b->taken);
        b->runs = b->taken = 0;
    }
    touched_n = 0;
}

static void on_exec(unsigned int vcpu, void *userdata)
{
    block_t *b = userdata;
    (void)vcpu;
    if (prev && b->start != prev->end) prev->taken++;
    if (b->mark) {
        close_segment();
        prev = NULL;
        return;
    }
    if (b->runs == 0) {
        if (touched_n == touched_cap) {
            touched_cap = touched_cap ? 2 * touched_cap : 4096;
            touched = realloc(touched, touched_cap * sizeof *touched);
            if (!touched) abort();
        }
        touched[touched_n++] = b;
    }
    b->runs++;
    prev = b;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, block_for(tb));
}

static void on_exit(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    fclose(counts_out);
    fclose(blocks_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    const char *counts = NULL, *blocks = NULL;
    int i;
    (void)info;
    for (i = 0; i < argc; i++) {
        if (strncmp(argv[i], "mark=", 5) == 0) mark_addr = strtoull(argv[i] + 5, NULL, 0);
        else if (strncmp(argv[i], "counts=", 7) == 0) counts = argv[i] + 7;
        else if (strncmp(argv[i], "blocks=", 7) == 0) blocks = argv[i] + 7;
        else {
            fprintf(stderr, "blocks_plugin: unknown argument %s\n", argv[i]);
            return 1;
        }
    }
    if (!mark_addr || !counts || !blocks) {
        fprintf(stderr, "blocks_plugin: needs mark=ADDRESS,counts=FILE,blocks=FILE\n");
        return 1;
    }
    counts_out = fopen(counts, "wb");
    blocks_out = fopen(blocks, "w");
    if (!counts_out || !blocks_out) {
        fprintf(stderr, "blocks_plugin: cannot write %s or %s\n", counts, blocks);
        return 1;
    }
    setvbuf(counts_out, NULL, _IOFBF, 1 << 20);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
