// run.mjs - runs an RP2040 firmware image in rp2040js (npm), synchronously.
//
//   node run.mjs --rp2040js DIST/esm/index.js --elf IMAGE.elf [--input FILE]
//                [--max-cycles N] [--pio] [--dump ADDR:LEN:FILE[:CYCLE] ...]
//                [--gpio-log FILE --gpio-first G --gpio-count K --log-from CYCLE]
//                [--uart-stdin] [--marks FILE] [--pc-count NAME:START:END ...]
//                [--pc-hist FILE [--hist-frames A:B]]
//
// Boots as rp2040js's own demo does, without a boot ROM (the npm package has
// none): the ELF's loadable segments placed in flash, SP at the top of RAM,
// PC at the flash's first byte (boot2, which jumps to the vector table).
// Then one loop: an instruction, the clock advanced by its cycles at clk_sys
// (to the next timer alarm when the core sleeps); with --pio, every enabled
// PIO state machine stepped once per system clock its divider lets through,
// its instructions' delays honoured (rp2040js's own PIO loop runs in
// setTimeout batches that ignore both: it is switched off).
// UART0: the bytes of --input fed as its receive FIFO has room, the bytes it
// sends written to stdout as they come. The run ends at a BKPT instruction
// (the headless image's end) or after --max-cycles (exit 3). stderr's last
// line: {"cycles": N, "end": "bkpt" | "budget"}. --dump writes LEN bytes of
// memory from ADDR (hex or decimal) to FILE at the end, or once CYCLE cycles
// have run (the framebuffer). --gpio-log records, from cycle CYCLE on, every
// change of GPIOs G .. G+K-1 as a line "CYCLE BITS" (bit i: GPIO G+i high),
// the first line the state then (the VGA signal, decoded by vga_signal.py).
// --uart-stdin: UART0 is also fed from stdin as bytes arrive, and what it
// sends is written out as it comes: the board on a serial line (pty_board.py
// gives it a pseudo-terminal). stdin must be non-blocking (EAGAIN when
// empty: the caller opens it so); its end stops the run ("end": "eof").
// BKPT #0 ends the run; BKPT #1..#255 are marks: with --marks, a line
// "N CYCLE" each (the frame's parts, for the budget). --pc-count adds to
// the last line the cycles spent with PC in [START, END) under NAME (where
// the time goes: the 64-bit multiply, the divider's wrappers). --pc-hist
// writes the cycles spent at each PC, a line "ADDRESS(hex) CYCLES" each
// (a profile: codegen/drivers/rp2040/profile.py folds it); --hist-frames
// counts only frames A to B-1 in it (frame k: from the k-th BKPT #1, from 0).
import { readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const FLASH = 0x10000000;
const FLASH_SIZE = 16 * 1024 * 1024;

function args(argv) {
  const a = { pcCount: [], dump: [], maxCycles: 2e10, pio: false, input: null, gpioLog: null, gpioFirst: 0, gpioCount: 0, logFrom: 0 };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--rp2040js') (a.lib = v), i++;
    else if (k === '--elf') (a.elf = v), i++;
    else if (k === '--input') (a.input = v), i++;
    else if (k === '--max-cycles') (a.maxCycles = Number(v)), i++;
    else if (k === '--dump') (a.dump.push(v), i++);
    else if (k === '--pio') a.pio = true;
    else if (k === '--uart-stdin') a.uartStdin = true;
    else if (k === '--marks') (a.marks = v), i++;
    else if (k === '--pc-count') (a.pcCount.push(v), i++);
    else if (k === '--pc-hist') (a.pcHist = v), i++;
    else if (k === '--hist-frames') (a.histFrames = v.split(':').map(Number)), i++;
    else if (k === '--gpio-log') (a.gpioLog = v), i++;
    else if (k === '--gpio-first') (a.gpioFirst = Number(v)), i++;
    else if (k === '--gpio-count') (a.gpioCount = Number(v)), i++;
    else if (k === '--log-from') (a.logFrom = Number(v)), i++;
    else throw new Error(`run.mjs: unknown argument ${k}`);
  }
  if (!a.lib || !a.elf) throw new Error('run.mjs: --rp2040js and --elf are needed');
  return a;
}

// The ELF's PT_LOAD segments by physical (load) address: code and the
// initial values of .data both lie in flash; the C runtime copies the latter.
function loadElf(mcu, path) {
  const b = readFileSync(path);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (v.getUint32(0, false) !== 0x7f454c46 || b[4] !== 1 || b[5] !== 1) throw new Error(`${path}: not a 32-bit little-endian ELF`);
  const phoff = v.getUint32(28, true);
  const phentsize = v.getUint16(42, true);
  const phnum = v.getUint16(44, true);
  for (let i = 0; i < phnum; i++) {
    const p = phoff + i * phentsize;
    const type = v.getUint32(p, true);
    const offset = v.getUint32(p + 4, true);
    const paddr = v.getUint32(p + 12, true);
    const filesz = v.getUint32(p + 16, true);
    if (type !== 1 || filesz === 0) continue;
    if (paddr < FLASH || paddr + filesz > FLASH + FLASH_SIZE) continue;
    mcu.flash.set(b.subarray(offset, offset + filesz), paddr - FLASH);
  }
}

// Each enabled state machine, once per system clock: its divider (16.8
// fixed point) decides whether it ticks; a tick runs an instruction or burns
// one cycle of the previous instruction's delay.
function pioStepper(mcu) {
  const machines = [];
  for (const pio of mcu.pio) {
    pio.run = () => {}; // the emulator's own timer-driven loop: off
    for (const sm of pio.machines) machines.push({ pio, sm, acc: 0, stall: 0 });
  }
  return () => {
    let any = false;
    for (const m of machines) {
      const { sm } = m;
      if (!sm.enabled) continue;
      any = true;
      const div = (sm.clockDivInt || 65536) * 256 + sm.clockDivFrac;
      m.acc += 256;
      if (m.acc < div) continue;
      m.acc -= div;
      if (m.stall > 0) {
        m.stall--;
        continue;
      }
      const before = sm.cycles;
      sm.step();
      const took = sm.cycles - before;
      if (took > 1) m.stall = took - 1;
    }
    if (any) for (const pio of mcu.pio) pio.checkChangedPins();
  };
}

const a = args(process.argv);
const { Simulator, ConsoleLogger, LogLevel } = await import(pathToFileURL(a.lib).href);
const sim = new Simulator(); // for its clock and RP2040; its own execute() loop is never started
const { clock, rp2040: mcu } = sim;
mcu.logger = new ConsoleLogger(LogLevel.Error); // not the UART's unmodelled registers (FIFO levels, DMA control)
loadElf(mcu, a.elf);
mcu.core.SP = 0x20041f00;
mcu.core.LR = 0;
mcu.core.PC = FLASH;

let ended = null;
const marks = [];
let frame = -1; // the frame under way: BKPT #1 (before the erase) starts the next
mcu.onBreak = (code) => {
  if (code === 0) ended = 'bkpt';
  else if (a.marks) marks.push(`${code} ${cycles}`);
  if (code === 1) frame++;
};
const out = [];
let outLen = 0;
function flush() {
  if (outLen) writeSync(1, Buffer.from(out.splice(0, out.length)));
  outLen = 0;
}
mcu.uart[0].onByte = (b) => {
  out.push(b);
  if (++outLen >= 65536) flush();
};
const input = a.input ? readFileSync(a.input) : Buffer.alloc(0);
let fed = 0;
const uart0 = mcu.uart[0];
const stepPio = a.pio ? pioStepper(mcu) : null;
if (!a.pio) for (const pio of mcu.pio) pio.run = () => {};

let cycles = 0;
const { core } = mcu;

function dumpMemory(d) {
  const [addr, len, file] = d.split(':');
  const start = Number(addr) - 0x20000000;
  writeFileSync(file, mcu.sram.subarray(start, start + Number(len)));
}
const dumpsAt = a.dump.filter((d) => d.split(':').length === 4).map((d) => ({ d, at: Number(d.split(':')[3]) }));
const dumpsAtEnd = a.dump.filter((d) => d.split(':').length === 3);

// GPIO changes, from logFrom on (pins read through rp2040js's GPIO model)
const log = [];
let logging = false;
function pinBits() {
  let bits = 0;
  for (let i = 0; i < a.gpioCount; i++) if (mcu.gpio[a.gpioFirst + i].value) bits |= 1 << i;
  return bits;
}
let lastBits = -1;
function onPin() {
  if (!logging) return;
  const bits = pinBits();
  if (bits !== lastBits) {
    log.push(`${cycles} ${bits}`);
    lastBits = bits;
  }
}
if (a.gpioLog) for (let i = 0; i < a.gpioCount; i++) mcu.gpio[a.gpioFirst + i].addListener(onPin);

// Polled every POLL instructions: stdin's bytes queued for UART0, UART0's output flushed.
const POLL = 4096;
let polls = 0;
let queued = Buffer.alloc(0);
const chunk = Buffer.alloc(4096);
function pollStdin() {
  flush();
  let n = 0;
  try {
    n = readSync(0, chunk, 0, chunk.length, null);
  } catch (e) {
    if (e.code === 'EAGAIN') return;
    throw e;
  }
  if (n === 0) ended = 'eof';
  else queued = Buffer.concat([queued, chunk.subarray(0, n)]);
}

const ranges = a.pcCount.map((v) => {
  const [name, start, end] = v.split(':');
  return { name, start: Number(start), end: Number(end), cycles: 0 };
});

const hist = a.pcHist ? new Map() : null;
const [histFrom, histTo] = a.histFrames || [-Infinity, Infinity]; // the frames whose cycles count in it
while (ended === null) {
  if (a.uartStdin) {
    if (++polls >= POLL) (polls = 0), pollStdin();
    while (queued.length && !uart0.rxFIFO.full) (uart0.feedByte(queued[0]), (queued = queued.subarray(1)));
  }
  if (a.gpioLog && !logging && cycles >= a.logFrom) {
    logging = true;
    onPin();
  }
  for (const x of dumpsAt) if (!x.done && cycles >= x.at) (dumpMemory(x.d), (x.done = true));
  if (fed < input.length && !uart0.rxFIFO.full) uart0.feedByte(input[fed++]);
  if (core.waiting && !stepPio) {
    const ns = clock.nanosToNextAlarm;
    if (ns <= 0 && fed >= input.length) throw new Error('run.mjs: the core sleeps with nothing left to wake it');
    cycles += Math.max(1, Math.round((ns * mcu.clkSys) / 1e9));
    clock.tick(Math.max(ns, 1e9 / mcu.clkSys));
  } else if (core.waiting) { // PIO runs while the core sleeps: one clock at a time
    cycles++;
    stepPio();
    clock.tick(1e9 / mcu.clkSys);
  } else {
    const pc = core.PC;
    const c = core.executeInstruction();
    for (const r of ranges) if (pc >= r.start && pc < r.end) r.cycles += c;
    if (hist && frame >= histFrom && frame < histTo) hist.set(pc, (hist.get(pc) || 0) + c);
    if (stepPio) for (let i = 0; i < c; i++) (cycles++, stepPio()); // pins change at their own cycle
    else cycles += c;
    clock.tick((c * 1e9) / mcu.clkSys);
  }
  if (cycles >= a.maxCycles && ended === null) ended = 'budget';
}
flush();
for (const d of dumpsAtEnd) dumpMemory(d);
if (a.gpioLog) writeFileSync(a.gpioLog, log.join('\n') + '\n');
if (a.marks) writeFileSync(a.marks, marks.join('\n') + '\n');
if (hist) writeFileSync(a.pcHist, [...hist].sort((x, y) => x[0] - y[0]).map(([p, c]) => `${p.toString(16)} ${c}`).join('\n') + '\n');
const pcCycles = Object.fromEntries(ranges.map((r) => [r.name, r.cycles]));
process.stderr.write(`${JSON.stringify({ cycles, end: ended, pc: pcCycles })}\n`);
process.exitCode = ended === 'bkpt' ? 0 : 3;
