/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Testbed scenario files (test-scenarios/NAME.scn): an INI dialect read with
 * libinih, validated here, and compiled into a POSIX shell script that the
 * guest runs with tools/testbed/guest-lib.sh.  Format: test-scenarios/README.md.
 */
#ifndef BC_SCENARIO_H
#define BC_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SC_NAME 16  /* IFNAMSIZ: namespace and interface names must fit */
#define SC_MAX 32   /* per-kind limits: namespaces, bonds, links, options, ... */
#define SC_VAL 256

enum sc_model { SC_VETH = 0, SC_E1000, SC_RTL8139, SC_VIRTIO, SC_N_MODELS };

struct sc_kv {
	char key[40];
	char val[SC_VAL];
	int line;
};

struct sc_ns {
	char name[SC_NAME];
	int line;
	struct sc_kv sysctl[SC_MAX];
	size_t n_sysctl;
	struct sc_kv addr[SC_MAX]; /* key = device, val = address/prefix */
	size_t n_addr;
};

struct sc_master {
	char ns[SC_NAME];
	char name[SC_NAME];
	bool bridge;
	int line;
	struct sc_kv opt[SC_MAX]; /* bonding options, iproute2 spelling */
	size_t n_opt;
	char primary[SC_NAME];    /* applied after enslaving */
	int mtu;
};

struct sc_end {
	char ns[SC_NAME];
	char master[SC_NAME];     /* "" = not enslaved */
	char ifname[SC_NAME];
	bool set;
};

/* where impairments sit: on the wire namespace, or on an end's own qdisc */
enum sc_where { SC_AT_DEFAULT = 0, SC_AT_WIRE, SC_AT_A, SC_AT_B, SC_AT_BOTH };
enum sc_dir { SC_DIR_BOTH = 0, SC_DIR_AB, SC_DIR_BA };

struct sc_link {
	char name[SC_NAME];
	int line;
	enum sc_model model;
	int pair;                 /* emulated NIC pair index within its model, from 1 */
	struct sc_end a, b;
	bool wire;
	char rate[32];            /* tc rate: "15mbit" */
	char delay[32], jitter[32], loss[32], reorder[48], duplicate[32];
	enum sc_where at;
	enum sc_dir dir;
	int mtu;
};

struct sc_step {
	char kind[24];            /* "cmd", "bond_mode", ... */
	char arg[SC_VAL * 2];
	int line;
};

struct scenario {
	char file[256];
	char name[64];
	char description[SC_VAL];
	int timeout_s;

	struct sc_ns ns[SC_MAX];
	size_t n_ns;
	struct sc_master master[SC_MAX];
	size_t n_master;
	struct sc_link link[SC_MAX];
	size_t n_link;
	struct sc_step run[SC_MAX * 2];   /* [run]: setup commands after the topology */
	size_t n_run;
	struct sc_step expect[SC_MAX * 2];
	size_t n_expect;
	size_t nic_pairs[SC_N_MODELS];

	/* first error: "file:line: reason" */
	int err_line;
	char err[512];
};

/*
 * sc_parse_file() - read and validate a scenario file.
 * Returns 0, or -1 with sc->err holding "FILE:LINE: reason" (the line is the
 * one that declared the offending key or section).
 */
int sc_parse_file(const char *path, struct scenario *sc);

/* sc_parse_buffer() - same on memory (fuzzing, tests); @name labels errors. */
int sc_parse_buffer(const char *buf, size_t len, const char *name, struct scenario *sc);

/* sc_emit_script() - write the guest shell script for a validated scenario. */
void sc_emit_script(const struct scenario *sc, FILE *out);

/* sc_model_name() - "veth", "e1000", "rtl8139", "virtio". */
const char *sc_model_name(enum sc_model m);

#endif
