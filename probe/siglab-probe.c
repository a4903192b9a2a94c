/*
 * siglab-probe.c - measures this machine's kernel paths with lmbench3's methods.
 *
 * Built on demand by `siglab probe` (cc -O2, cached by the hash of this file) and run as an
 * ordinary user: it never needs root. It prints one JSON document of raw loops; the CLI turns
 * them into lmbench's figures (the subtractions of lat_sig and lat_ctx are made there, in
 * apps/cli/src/probe/figures.ts, so they can be unit-tested).
 *
 * Each loop follows the lmbench3 source named beside it (src/lat_syscall.c, lat_sig.c, lat_pipe.c,
 * lat_ctx.c, lat_proc.c) and is timed as lib_timing.c's benchmp() times it: the iteration count
 * starts at 1 and is rescaled until one interval lasts about `enough` (lmbench's 5 ms on a
 * machine with a fine clock), then `repeat` intervals (lmbench's TRIES, 11) are kept. Unlike
 * lmbench, the clock is CLOCK_MONOTONIC in nanoseconds, so lmbench's subtraction of the timer's
 * and an empty loop's overhead (both below 0.01 % of a 5 ms interval) is not made, and every loop
 * uses the same `enough` (lat_pipe asks benchmp for 1 s intervals, which would make the probe
 * take minutes).
 *
 * Usage: siglab-probe [-N repeat] [-E enough_us] [-T seconds]
 *
 * Pinning: the probe pins itself to the first CPU it may run on; the partner process of the
 * "pinned" two-process loops runs there too, the partner of the "across" loops on the second.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define PROBE_X86 1
#endif

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

#define MAXREP 101

static int repeat = 11;
static double enough_ns = 5e6;
static int cpu_a = -1, cpu_b = -1; /* the first two CPUs this process may run on */

static void die(const char *what)
{
	fprintf(stderr, "siglab-probe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static inline double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- benchmp: lib_timing.c's interval scaling, for one process (parallel = 1) ---- */

typedef double (*loop_fn)(uint64_t n, void *cookie); /* returns the ns taken by n iterations */

struct series {
	double us[MAXREP]; /* per iteration, in microseconds, in the order measured */
	uint64_t n[MAXREP];
	int count;
};

/*
 * benchmp_interval()'s rules: an interval longer than 0.95 * enough is kept; while one is
 * shorter than 0.99 * enough or longer than 1.2 * enough the count is rescaled to 1.1 * enough
 * (or multiplied by 8 while an interval takes under 150 us); more than 2^27 iterations is a failure.
 * One change: the first interval is never kept (a warm-up, as lmbench's -W would give).
 */
static int benchmp(loop_fn f, void *cookie, struct series *s)
{
	uint64_t n = 1;
	int intervals = 0;

	s->count = 0;
	while (s->count < repeat) {
		double t = f(n, cookie);
		if (t < 0) return -1;
		if (++intervals > 50 * repeat + 100) {
			fprintf(stderr, "siglab-probe: the interval never settled near %.0f us\n", enough_ns / 1e3);
			return -1;
		}
		/* the first interval is a warm-up (cold caches, a partner's first run): never kept */
		if (intervals > 1 && t > 0.95 * enough_ns) {
			s->us[s->count] = t / 1e3 / (double)n;
			s->n[s->count] = n;
			s->count++;
		}
		if (t < 0.99 * enough_ns || t > 1.2 * enough_ns) {
			if (t > 150e3) {
				n = (uint64_t)((double)n / t * 1.1 * enough_ns + 1);
			} else {
				n <<= 3;
				if (n > (1u << 27)) {
					fprintf(stderr, "siglab-probe: more than 2^27 iterations in %.0f us\n", enough_ns / 1e3);
					return -1;
				}
			}
		}
	}
	return 0;
}

/* ---- output ---- */

static int first_loop = 1;

static void emit(const char *id, const char *what, struct series *s)
{
	printf("%s\n    {\"id\": \"%s\", \"what\": \"%s\", \"perIterationUs\": [", first_loop ? "" : ",", id, what);
	for (int i = 0; i < s->count; i++) printf("%s%.5f", i ? ", " : "", s->us[i]);
	printf("], \"iterations\": [");
	for (int i = 0; i < s->count; i++) printf("%s%llu", i ? ", " : "", (unsigned long long)s->n[i]);
	printf("]}");
	first_loop = 0;
	fflush(stdout);
}

static char skipped[4096];

static void skip(const char *id, const char *reason)
{
	size_t len = strlen(skipped);
	snprintf(skipped + len, sizeof skipped - len, "%s{\"id\": \"%s\", \"reason\": \"%s\"}", len ? ", " : "", id, reason);
}

static void run(const char *id, const char *what, loop_fn f, void *cookie)
{
	struct series s;
	if (benchmp(f, cookie, &s) < 0) {
		fprintf(stderr, "siglab-probe: %s: no stable measurement\n", id);
		exit(1);
	}
	emit(id, what, &s);
}

/* ---- CPUs ---- */

static int pin(int cpu)
{
	cpu_set_t set;
	if (cpu < 0) return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

static void find_cpus(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) < 0) return;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set)) continue;
		if (cpu_a < 0) cpu_a = c;
		else if (cpu_b < 0) { cpu_b = c; break; }
	}
}

/* A partner process: dies with the probe (a killed probe leaves no process behind). */
static pid_t spawn(int cpu)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) _exit(1);
		if (pin(cpu) < 0) _exit(1);
	}
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* ---- lat_syscall.c null: getppid() ---- */

static double do_getppid(uint64_t n, void *c)
{
	(void)c;
	double t0 = now_ns();
	while (n-- > 0) getppid();
	return now_ns() - t0;
}

/* ---- lat_sig.c install / catch (and its send loop) / prot ---- */

static void handler(int sig) { (void)sig; }

static double do_install(uint64_t n, void *c)
{
	struct sigaction sa, old;
	(void)c;
	double t0 = now_ns();
	while (n-- > 0) {
		sa.sa_handler = handler;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = 0;
		sigaction(SIGUSR1, &sa, &old);
	}
	return now_ns() - t0;
}

/* lat_sig's do_send and do_catch count with `while (--iterations > 0)`: n - 1 calls, as there */
static double do_send(uint64_t n, void *c)
{
	int me = getpid();
	(void)c;
	double t0 = now_ns();
	while (--n > 0) kill(me, 0);
	return now_ns() - t0;
}

static double do_catch(uint64_t n, void *c)
{
	int me = getpid();
	struct sigaction sa, old;
	(void)c;
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, &old);
	double t0 = now_ns();
	while (--n > 0) kill(me, SIGUSR1);
	return now_ns() - t0;
}

/*
 * lat_sig prot: a write to a read-only MAP_SHARED mapping of a file. The handler only counts and
 * returns, so the write faults again; in lmbench the handler calls benchmp_interval() every n
 * faults (which ends the interval and, at the end, exits the process); here it ends the interval
 * with a siglongjmp after n faults.
 */
static volatile uint64_t prot_caught, prot_n;
static volatile double prot_t0, prot_t1; /* volatile: set around a siglongjmp */
static sigjmp_buf prot_env;
static char *prot_where;

static void prot(int sig)
{
	(void)sig;
	if (++prot_caught == prot_n) {
		prot_t1 = now_ns();
		siglongjmp(prot_env, 1);
	}
}

static void prot_setup(void)
{
	char path[4096], page[4096];
	const char *dir = getenv("TMPDIR");
	struct sigaction sa;
	int fd;

	snprintf(path, sizeof path, "%s/siglab-probe-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) die("mkstemp (the prot loop's file)");
	memset(page, 0, sizeof page);
	if (write(fd, page, sizeof page) != (ssize_t)sizeof page) die("write (the prot loop's file)");
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0) die("open (the prot loop's file)");
	prot_where = mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (prot_where == MAP_FAILED) die("mmap (the prot loop's file)");
	close(fd);
	unlink(path);

	sa.sa_handler = prot;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGSEGV, &sa, 0);
	sigaction(SIGBUS, &sa, 0);
}

static double do_prot(uint64_t n, void *c)
{
	(void)c;
	prot_n = n;
	prot_caught = 0;
	if (sigsetjmp(prot_env, 1) == 0) {
		prot_t0 = now_ns();
		*(volatile char *)prot_where = 1; /* faults n times */
		fprintf(stderr, "siglab-probe: prot: a write to a read-only mapping did not fault\n");
		return -1;
	}
	return prot_t1 - prot_t0;
}

static void prot_teardown(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	munmap(prot_where, 4096);
}

/* ---- lat_pipe.c: a byte to and fro over two pipes, per round trip ---- */

struct pipe_state {
	pid_t pid;
	int w, r;
};

static void pipe_setup(struct pipe_state *s, int cpu)
{
	int p1[2], p2[2];
	char ch = 0;
	if (pipe(p1) < 0 || pipe(p2) < 0) die("pipe");
	s->pid = spawn(cpu);
	if (s->pid == 0) {
		close(p1[1]);
		close(p2[0]);
		for (;;) {
			if (read(p1[0], &ch, 1) != 1 || write(p2[1], &ch, 1) != 1) _exit(1);
		}
	}
	close(p1[0]);
	close(p2[1]);
	s->w = p1[1];
	s->r = p2[0];
	/* one time around to make sure both processes are started */
	if (write(s->w, &ch, 1) != 1 || read(s->r, &ch, 1) != 1) die("pipe warm-up");
}

static double do_pipe(uint64_t n, void *c)
{
	struct pipe_state *s = c;
	char ch = 0;
	double t0 = now_ns();
	while (n-- > 0) {
		if (write(s->w, &ch, 1) != 1 || read(s->r, &ch, 1) != 1) {
			fprintf(stderr, "siglab-probe: pipe: read/write failed\n");
			return -1;
		}
	}
	return now_ns() - t0;
}

static void pipe_teardown(struct pipe_state *s)
{
	reap(s->pid);
	close(s->w);
	close(s->r);
}

/* ---- lat_ctx.c, 2 processes, 0 KB: a token around a ring of pipes; and its overhead loop ---- */

struct ctx_state {
	int p[2][2];
	pid_t pid;
};

static void ctx_pipes(struct ctx_state *s)
{
	for (int i = 0; i < 2; i++)
		if (pipe(s->p[i]) < 0) die("pipe");
}

static void ctx_close(struct ctx_state *s)
{
	for (int i = 0; i < 2; i++) {
		close(s->p[i][0]);
		close(s->p[i][1]);
	}
}

/* benchmark_overhead: one process writes and reads its own pipes in turn (bread of 0 bytes) */
static double do_ctx_overhead(uint64_t n, void *c)
{
	struct ctx_state *s = c;
	int i = 0, msg = 1;
	double t0 = now_ns();
	while (n-- > 0) {
		if (write(s->p[i][1], &msg, sizeof msg) != sizeof msg || read(s->p[i][0], &msg, sizeof msg) != sizeof msg) return -1;
		if (++i == 2) i = 0;
	}
	return now_ns() - t0;
}

static void ctx_setup(struct ctx_state *s, int cpu)
{
	int msg = 0;
	ctx_pipes(s);
	s->pid = spawn(cpu);
	if (s->pid == 0) { /* create_daemons' child 1 of 2: reads p[0], writes p[1] */
		close(s->p[0][1]);
		close(s->p[1][0]);
		for (;;) {
			if (read(s->p[0][0], &msg, sizeof msg) != sizeof msg) break;
			if (write(s->p[1][1], &msg, sizeof msg) != sizeof msg) break;
		}
		_exit(1);
	}
	/* once around the ring: everyone is ready and the token is in the pipeline */
	if (write(s->p[0][1], &msg, sizeof msg) != sizeof msg || read(s->p[1][0], &msg, sizeof msg) != sizeof msg) die("ctx warm-up");
}

static double do_ctx(uint64_t n, void *c)
{
	struct ctx_state *s = c;
	int msg = 0;
	double t0 = now_ns();
	while (n-- > 0) {
		if (write(s->p[0][1], &msg, sizeof msg) != sizeof msg || read(s->p[1][0], &msg, sizeof msg) != sizeof msg) {
			fprintf(stderr, "siglab-probe: ctx: read/write failed\n");
			return -1;
		}
	}
	return now_ns() - t0;
}

/* ---- a signal to a process waiting in sigwaitinfo / sigsuspend and one back, per round trip ---- */

struct wake_state {
	pid_t pid;
	int suspend; /* 0: sigwaitinfo, 1: sigsuspend with a handler */
};

static void wake_setup(struct wake_state *s, int cpu)
{
	sigset_t both;
	struct sigaction sa;
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, 0);
	sigaction(SIGUSR2, &sa, 0);
	/* blocked before the fork: no signal can arrive before its receiver waits for it */
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, 0);
	s->pid = spawn(cpu);
	if (s->pid == 0) {
		pid_t parent = getppid();
		sigset_t usr1, all_but_usr1;
		siginfo_t si;
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_SETMASK, 0, &all_but_usr1);
		sigdelset(&all_but_usr1, SIGUSR1);
		for (;;) {
			if (s->suspend) sigsuspend(&all_but_usr1);
			else if (sigwaitinfo(&usr1, &si) < 0) continue;
			kill(parent, SIGUSR2);
		}
	}
}

static double do_wake(uint64_t n, void *c)
{
	struct wake_state *s = c;
	sigset_t usr2, all_but_usr2;
	siginfo_t si;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_SETMASK, 0, &all_but_usr2);
	sigdelset(&all_but_usr2, SIGUSR2);
	double t0 = now_ns();
	while (n-- > 0) {
		kill(s->pid, SIGUSR1);
		if (s->suspend) sigsuspend(&all_but_usr2);
		else while (sigwaitinfo(&usr2, &si) < 0) {}
	}
	return now_ns() - t0;
}

static void wake_teardown(struct wake_state *s)
{
	sigset_t both;
	reap(s->pid);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &both, 0);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* ---- a GC write barrier: write to a protected page, SIGSEGV, handler mprotects RW, retry, re-protect ---- */

static char *gc_page;

static void gc_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if ((char *)si->si_addr < gc_page || (char *)si->si_addr >= gc_page + 4096) {
		signal(sig, SIG_DFL); /* not ours: crash as the program would */
		return;
	}
	mprotect(gc_page, 4096, PROT_READ | PROT_WRITE);
}

static double do_gc(uint64_t n, void *c)
{
	(void)c;
	double t0 = now_ns();
	while (n-- > 0) {
		*(volatile char *)gc_page = 1;
		mprotect(gc_page, 4096, PROT_READ);
	}
	return now_ns() - t0;
}

/* ---- lat_proc.c fork: fork, the child exits, the parent waits ---- */

static double do_fork(uint64_t n, void *c)
{
	(void)c;
	signal(SIGCHLD, SIG_DFL);
	fflush(stdout); /* the child's exit() flushes stdio, as lmbench's does: nothing may be pending */
	double t0 = now_ns();
	while (n-- > 0) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "siglab-probe: fork: %s\n", strerror(errno));
			return -1;
		}
		if (pid == 0) exit(1);
		waitpid(pid, NULL, 0);
	}
	return now_ns() - t0;
}

/* ---- what this CPU saves in a signal frame ---- */

static void print_host(void)
{
	struct utsname u;
	int online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	uname(&u);
	printf("  \"host\": {\"machine\": \"%s\", \"release\": \"%s\", \"cpusOnline\": %d, \"cpuPinned\": %d, \"cpuAcross\": %d, \"minSigStkSz\": %lu",
	       u.machine, u.release, online, cpu_a, cpu_b, minsig);
#ifdef PROBE_X86
	{
		static const char *const names[32] = {
			[0] = "x87", [1] = "sse", [2] = "avx", [3] = "mpx_bndregs", [4] = "mpx_bndcsr",
			[5] = "avx512_opmask", [6] = "avx512_zmm_hi256", [7] = "avx512_hi16_zmm",
			[9] = "pkru", [17] = "amx_tilecfg", [18] = "amx_tiledata", [19] = "apx",
		};
		unsigned a, b, c, d, max;
		char vendor[13] = {0};
		__cpuid(0, max, b, c, d);
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
		__cpuid(1, a, b, c, d);
		{
			unsigned fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf, step = a & 0xf;
			if (fam == 0xf) fam += (a >> 20) & 0xff;
			if (fam == 0x6 || fam >= 0xf) model |= ((a >> 16) & 0xf) << 4;
			printf(", \"cpuid\": {\"vendor\": \"%s\", \"family\": %u, \"model\": %u, \"stepping\": %u}", vendor, fam, model, step);
		}
		int osxsave = (c >> 27) & 1, xsave = (c >> 26) & 1;
		printf(", \"xsave\": {\"supported\": %s, \"osxsave\": %s", xsave ? "true" : "false", osxsave ? "true" : "false");
		if (osxsave && max >= 0xd) {
			unsigned lo, hi;
			__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			unsigned long long xcr0 = ((unsigned long long)hi << 32) | lo;
			unsigned a0, b0, c0, d0, a1, b1, c1, d1;
			__cpuid_count(0xd, 0, a0, b0, c0, d0);
			__cpuid_count(0xd, 1, a1, b1, c1, d1);
			printf(", \"xcr0\": \"0x%llx\", \"features\": [", xcr0);
			int first = 1;
			for (int i = 0; i < 64; i++) {
				if (!((xcr0 >> i) & 1)) continue;
				if (i < 32 && names[i]) printf("%s\"%s\"", first ? "" : ", ", names[i]);
				else printf("%s\"component_%d\"", first ? "" : ", ", i);
				first = 0;
			}
			printf("], \"areaBytes\": %u, \"maxAreaBytes\": %u, \"instructions\": [", b0, c0);
			printf("\"xsave\"");
			if (a1 & 1) printf(", \"xsaveopt\"");
			if (a1 & 2) printf(", \"xsavec\"");
			if (a1 & 4) printf(", \"xgetbv1\"");
			if (a1 & 8) printf(", \"xsaves\"");
			printf("]");
		}
		printf("}");
	}
#endif
	printf("},\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: siglab-probe [-N repeat (1-%d)] [-E enough_us] [-T time_limit_s]\n", MAXREP);
	exit(2);
}

int main(int ac, char **av)
{
	int c, limit = 0;
	while ((c = getopt(ac, av, "N:E:T:")) != -1) {
		switch (c) {
		case 'N': repeat = atoi(optarg); if (repeat < 1 || repeat > MAXREP) usage(); break;
		case 'E': enough_ns = atof(optarg) * 1e3; if (enough_ns < 100e3) usage(); break;
		case 'T': limit = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != ac) usage();
	if (limit > 0) alarm(limit); /* the partners die with the probe (PR_SET_PDEATHSIG) */

	find_cpus();
	if (pin(cpu_a) < 0) die("sched_setaffinity");

	printf("{\n  \"probe\": 1,\n  \"repeat\": %d,\n  \"enoughUs\": %.0f,\n", repeat, enough_ns / 1e3);
	print_host();
	printf("  \"loops\": [");

	run("getppid", "getppid() (lat_syscall null)", do_getppid, 0);
	run("sig_install", "sigaction(SIGUSR1) (lat_sig install)", do_install, 0);
	run("sig_send", "kill(getpid(), 0) (lat_sig do_send)", do_send, 0);
	run("sig_catch", "kill(getpid(), SIGUSR1) caught by an empty handler (lat_sig do_catch)", do_catch, 0);
	signal(SIGUSR1, SIG_DFL);
	prot_setup();
	run("sig_prot", "write to a read-only MAP_SHARED file page, handler counts (lat_sig do_prot)", do_prot, 0);
	prot_teardown();

	{
		struct pipe_state s;
		pipe_setup(&s, cpu_a);
		run("pipe", "a byte there and back over two pipes, both processes on one CPU (lat_pipe)", do_pipe, &s);
		pipe_teardown(&s);
		if (cpu_b >= 0) {
			pipe_setup(&s, cpu_b);
			run("pipe_across", "a byte there and back over two pipes, one process per CPU (lat_pipe)", do_pipe, &s);
			pipe_teardown(&s);
		} else skip("pipe_across", "only one CPU is available to this process");
	}
	{
		struct ctx_state s;
		ctx_pipes(&s);
		run("ctx_overhead", "write+read of a 4-byte token on the process's own pipes (lat_ctx overhead)", do_ctx_overhead, &s);
		ctx_close(&s);
		ctx_setup(&s, cpu_a);
		run("ctx_2p", "a token around a ring of 2 processes on one CPU (lat_ctx 2 processes, 0 KB)", do_ctx, &s);
		reap(s.pid);
		ctx_close(&s);
		if (cpu_b >= 0) {
			ctx_setup(&s, cpu_b);
			run("ctx_2p_across", "a token around a ring of 2 processes, one per CPU (lat_ctx 2 processes, 0 KB)", do_ctx, &s);
			reap(s.pid);
			ctx_close(&s);
		} else skip("ctx_2p_across", "only one CPU is available to this process");
	}
	{
		struct wake_state s = {0, 0};
		wake_setup(&s, cpu_a);
		run("sigwaitinfo", "SIGUSR1 to a process in sigwaitinfo, SIGUSR2 back, one CPU", do_wake, &s);
		wake_teardown(&s);
		s.suspend = 1;
		wake_setup(&s, cpu_a);
		run("sigsuspend", "SIGUSR1 to a process in sigsuspend (handler), SIGUSR2 back, one CPU", do_wake, &s);
		wake_teardown(&s);
	}
	{
		struct sigaction sa;
		gc_page = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (gc_page == MAP_FAILED) die("mmap (the barrier's page)");
		sa.sa_sigaction = gc_fault;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSEGV, &sa, 0);
		run("gc_barrier", "write to a PROT_READ page, SIGSEGV, handler mprotects RW, retry, mprotect PROT_READ", do_gc, 0);
		signal(SIGSEGV, SIG_DFL);
		munmap(gc_page, 4096);
	}
	run("fork", "fork(), the child exits, the parent waits (lat_proc fork)", do_fork, 0);

	printf("\n  ],\n  \"skipped\": [%s]\n}\n", skipped);
	return 0;
}
