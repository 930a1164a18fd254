/* pt.h - protothreads: stackless cooperative threads in a few macros.
 *
 * A thread is a function `static PT_THREAD(name(struct pt *pt))` whose body
 * sits between PT_BEGIN and PT_END. Each blocking point stores the source
 * line in pt->lc and returns; the next call jumps back with a switch.
 * Consequences worth knowing: locals do not survive a yield (use statics),
 * and no `switch` may enclose a blocking macro inside a thread.
 */
#ifndef BOIDSGEN_PT_H
#define BOIDSGEN_PT_H

typedef unsigned short pt_lc_t;

struct pt { pt_lc_t lc; };

enum { PT_WAITING = 0, PT_YIELDED = 1, PT_EXITED = 2, PT_ENDED = 3 };

#if defined(__GNUC__) && __GNUC__ >= 7
#define PT_FALLTHROUGH __attribute__((fallthrough))
#else
#define PT_FALLTHROUGH ((void)0)
#endif

#define PT_THREAD(decl) char decl
#define PT_INIT(p) ((p)->lc = 0)

#define PT_BEGIN(p) { char pt_yielded_ = 1; (void)pt_yielded_; switch ((p)->lc) { case 0:
#define PT_END(p) PT_FALLTHROUGH; default: break; } pt_yielded_ = 0; PT_INIT(p); return PT_ENDED; }

/* Resume point: record where we are, then fall into the matching case. */
#define PT_MARK_(p) (p)->lc = (pt_lc_t)__LINE__; PT_FALLTHROUGH; case __LINE__:

#define PT_WAIT_UNTIL(p, cond) \
    do { PT_MARK_(p) if (!(cond)) return PT_WAITING; } while (0)
#define PT_WAIT_WHILE(p, cond) PT_WAIT_UNTIL(p, !(cond))

/* Give the other threads one turn, even if nothing is awaited. */
#define PT_YIELD(p) \
    do { pt_yielded_ = 0; PT_MARK_(p) if (pt_yielded_ == 0) return PT_YIELDED; } while (0)
#define PT_YIELD_UNTIL(p, cond) \
    do { pt_yielded_ = 0; PT_MARK_(p) if (pt_yielded_ == 0 || !(cond)) return PT_YIELDED; } while (0)

#define PT_EXIT(p) do { PT_INIT(p); return PT_EXITED; } while (0)
#define PT_RESTART(p) do { PT_INIT(p); return PT_WAITING; } while (0)

/* Run a thread once; true while it has not ended. */
#define PT_SCHEDULE(f) ((f) < PT_EXITED)

#endif
