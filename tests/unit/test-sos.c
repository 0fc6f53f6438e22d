// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `inspect --from-sos` (sos.h): the walker on the trees in tests/data/sos/,
 * on a .tar.xz and .tar.gz made from them at run time with tar(1), on a tree
 * whose symlinks lead out of it (made at run time: git may not keep them),
 * and on hostile archives built in memory with libarchive's writer ("../",
 * absolute paths, symlink and hardlink entries, an oversized entry, two
 * report folders); then the merge: drivers per slave, the bond named from
 * its file, /proc vs ip cross-checks.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bondcheck/findings.h"
#include "bondcheck/names.h"
#include "bondcheck/sos.h"

#define SOS    BC_TEST_DATA "/sos"
#define CASE09 BC_TEST_DATA "/proc-net-bonding/09-balance-tlb-v5.10-debian11.txt"
#define CASE21 BC_TEST_DATA "/proc-net-bonding/21-balance-alb-v3.5.0-ubuntu1004-no-speed-lines.txt"
#define ETH02  BC_TEST_DATA "/ethtool-i/02-e1000-bond-slave-old-format-2.6.32.txt"

static struct bc_snapshot snap;
static struct bc_sos sos;
static struct bc_error err;
static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	memset(&snap, 0, sizeof(snap));
	memset(&sos, 0, sizeof(sos));
	bc_error_clear(&err);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bc-test-sos.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	bc_snapshot_free(&snap);
	bc_sos_free(&sos);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static bool any_warning(const char *needle)
{
	for (size_t i = 0; i < snap.n_warnings; i++)
		if (strstr(snap.warnings[i], needle))
			return true;
	return false;
}

static bool any_note(const char *needle)
{
	for (size_t i = 0; i < sos.n_notes; i++)
		if (strstr(sos.notes[i], needle))
			return true;
	return false;
}

static const struct bc_finding *finding(const char *id, const char *subject)
{
	for (size_t i = 0; i < snap.n_findings; i++)
		if (!strcmp(snap.findings[i].id, id) && !strcmp(snap.findings[i].subject, subject))
			return &snap.findings[i];
	return NULL;
}

/* The alb/e1000 tree, from a folder or an archive of it: every value checked. */
static void check_alb(void)
{
	const struct bc_bond *b;

	assert_int_equal(snap.source, BC_SRC_SOS);
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_string_equal(b->name, "bond0");
	assert_int_equal(b->mode.v, BC_MODE_ALB);
	assert_non_null(strstr(b->origin, "sosreport-alb-e1000-2011-03-01/proc/net/bonding/bond0"));
	assert_int_equal(b->n_slaves, 2);
	assert_string_equal(b->slaves[0].name, "eth1");
	assert_string_equal(b->slaves[0].driver, "e1000");
	assert_string_equal(b->slaves[0].driver_version, "7.3.21-k5-NAPI");
	assert_string_equal(b->slaves[0].fw_version, "N/A");
	assert_string_equal(b->slaves[0].bus_info, "0000:04:01.0");
	assert_string_equal(b->slaves[1].bus_info, "0000:04:02.0");
	assert_true(b->slaves[1].drvinfo_present);
	/* v3.5.0 /proc has no Speed line: ethtool_eth1 completes it */
	assert_int_equal(b->slaves[0].speed_mbps.st, BC_KNOWN);
	assert_int_equal(b->slaves[0].speed_mbps.v, 1000);
	assert_int_equal(b->slaves[1].duplex.v, 1);
	assert_int_equal(b->slaves[1].carrier.v, 1);
	assert_int_equal(b->slaves[1].port.v, 0);
	assert_int_equal(snap.n_disagreements, 0);
	assert_int_equal(bc_findings_evaluate(&snap), 0);
	assert_null(finding("driver-mismatch", "bond0"));
	assert_null(finding("speed-not-reported", "bond0"));
}

static void folder(void **state)
{
	(void)state;
	assert_int_equal(bc_sos_read(SOS "/alb-e1000", &sos, &err), 0);
	assert_string_equal(sos.root, "sosreport-alb-e1000-2011-03-01");
	assert_true(sos.is_dir);
	/* bond0, ethtool_-i_eth1/2, ethtool_eth1/2; not ethtool_-k_eth1 or ethtool_-S_eth1 */
	assert_int_equal(sos.n_files, 5);
	assert_int_equal(sos.files[0].kind, BC_SOS_PROC_BOND);
	assert_int_equal(sos.files[1].kind, BC_SOS_ETHTOOL_I);
	assert_string_equal(sos.files[1].name, "eth1");
	assert_int_equal(bc_sos_load(&sos, &snap, &err), 0);
	check_alb();
}

static void archive_of(const char *flags, const char *ext)
{
	char path[512], cmd[1024];

	snprintf(path, sizeof(path), "%s/report.%s", tmpdir, ext);
	snprintf(cmd, sizeof(cmd), "tar -c%sf '%s' -C '%s' .", flags, path, SOS "/alb-e1000");
	assert_int_equal(system(cmd), 0);
	assert_int_equal(bc_sos_inspect(path, &snap, &err), 0);
	check_alb();
}

static void tar_xz(void **state)
{
	(void)state;
	archive_of("J", "tar.xz");
}

static void tar_gz(void **state)
{
	(void)state;
	archive_of("z", "tar.gz");
}

static void bond_named_from_stem(void **state)
{
	const struct bc_finding *f;

	(void)state;
	assert_int_equal(bc_sos_inspect(SOS "/mixed-drivers", &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 1);
	assert_string_equal(snap.bonds[0].name, "bond0"); /* from bond0.txt */
	assert_false(any_warning("not an interface name"));
	assert_string_equal(snap.bonds[0].slaves[0].driver, "ixgbe");
	assert_string_equal(snap.bonds[0].slaves[1].driver, "e1000");
	assert_int_equal(bc_findings_evaluate(&snap), 0);
	f = finding("driver-mismatch", "bond0");
	assert_non_null(f);
	assert_string_equal(f->evidence[0].value, "ixgbe, e1000");
}

static void names(void **state)
{
	char n[BC_IFNAMSIZ];

	(void)state;
	assert_true(bc_ifname_from_file("bond0.txt", n));
	assert_string_equal(n, "bond0");
	assert_true(bc_ifname_from_file("bond1", n));
	assert_string_equal(n, "bond1");
	assert_true(bc_ifname_from_file("bond0.100", n)); /* a dot is legal in a name */
	assert_string_equal(n, "bond0.100");
	assert_false(bc_ifname_from_file("bonding status.txt", n));
	assert_false(bc_ifname_from_file("a-name-longer-than-15.txt", n));
	assert_false(bc_ifname_from_file(".txt", n));
	assert_string_equal(n, "");
}

static void put(const char *rel, const char *from)
{
	char path[512], cmd[1200];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", path, from,
		 path);
	assert_int_equal(system(cmd), 0);
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A tree whose symlinks lead out of it: none is followed; one inside is. */
static void symlinks(void **state)
{
	char outside[512];

	(void)state;
	put("r/proc/net/bonding/bond0", CASE21);
	put("r/sos_commands/networking/ethtool_-i_eth1.real", ETH02);
	put("outside/ethtool_-i_eth2", ETH02);
	put("outside/proc/net/bonding/bond2", CASE09);
	snprintf(outside, sizeof(outside), "%s/outside", tmpdir);
	link_to("r/proc/net/bonding/bond1", CASE09); /* absolute, out */
	link_to("r/sos_commands/networking/ethtool_-i_eth2", "../../../outside/ethtool_-i_eth2");
	link_to("r/sos_commands/networking/ethtool_-i_eth1", "ethtool_-i_eth1.real"); /* in */
	link_to("r/proc/net/bonding/bond3", "/proc/self/root/etc/hostname");	      /* magic */
	snprintf(outside, sizeof(outside), "%s/r/proc/net/bonding/bond4", tmpdir);
	assert_int_equal(mkfifo(outside, 0644), 0); /* never opened: it would block */
	snprintf(outside, sizeof(outside), "%s/r", tmpdir);
	assert_int_equal(bc_sos_inspect(outside, &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 1);
	assert_string_equal(snap.bonds[0].name, "bond0");
	assert_string_equal(snap.bonds[0].slaves[0].driver, "e1000"); /* link inside the tree */
	assert_string_equal(snap.bonds[0].slaves[1].driver, "");      /* link out: not read */
	assert_true(any_warning("proc/net/bonding/bond1: skipped: a symlink that leads out"));
	assert_true(any_warning("ethtool_-i_eth2: skipped: a symlink that leads out"));
	assert_true(any_warning("proc/net/bonding/bond3: skipped"));
	assert_true(any_warning("proc/net/bonding/bond4: skipped: not a regular file"));
}

/* A folder that is a symlink out of the tree is not walked either. */
static void symlinked_folder(void **state)
{
	char root[512];

	(void)state;
	put("outside/bonding/bond0", CASE21);
	put("r/sos_commands/networking/ethtool_-i_eth1", ETH02);
	snprintf(root, sizeof(root), "mkdir -p %s/r/proc/net", tmpdir);
	assert_int_equal(system(root), 0);
	snprintf(root, sizeof(root), "%s/outside/bonding", tmpdir);
	link_to("r/proc/net/bonding", root);
	snprintf(root, sizeof(root), "%s/r", tmpdir);
	assert_int_equal(bc_sos_read(root, &sos, &err), 0);
	assert_true(any_note("proc/net/bonding: skipped: a symlink"));
	assert_int_equal(sos.n_files, 1);
	assert_int_equal(bc_sos_load(&sos, &snap, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no bond found"));
	assert_non_null(strstr(err.msg, "1 ethtool file"));
}

static void odd_file_name(void **state)
{
	char root[512];

	(void)state;
	put("proc/net/bonding/bonding status (copy).txt", CASE21);
	put("proc/net/bonding/bond0", CASE09);
	snprintf(root, sizeof(root), "%s", tmpdir);
	assert_int_equal(bc_sos_inspect(root, &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 2);
	/* files are taken in name order: "bond0", then the odd one as bond1 */
	assert_string_equal(snap.bonds[0].name, "bond0");
	assert_int_equal(snap.bonds[0].mode.v, BC_MODE_TLB);
	assert_string_equal(snap.bonds[1].name, "bond1");
	assert_int_equal(snap.bonds[1].mode.v, BC_MODE_ALB);
	assert_true(any_warning("'bonding status (copy).txt' is not an interface name; the bond "
				"is called bond1"));
}

/* A bond file named "status.txt" is named after the listing that shows its slaves. */
static void named_by_listing(void **state)
{
	char cmd[1024];

	(void)state;
	put("proc/net/bonding/status.txt",
	    SOS "/proc-ip-disagree/sosreport-vbox-2019-05-01/proc/net/"
		"bonding/bond0");
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/sos_commands/networking' && sed 's/bond0/bond7/g' "
		 "'%s/proc-ip-disagree/sosreport-vbox-2019-05-01/sos_commands/networking/"
		 "ip_-d_address' >'%s/sos_commands/networking/ip_-d_address'",
		 tmpdir, SOS, tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(bc_sos_inspect(tmpdir, &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 1);
	assert_string_equal(snap.bonds[0].name, "bond7");
	assert_int_equal(snap.bonds[0].n_slaves, 2);
	assert_true(any_warning("called bond7 after the ip listing"));
	/* /proc's view was joined: its eth2 link failure disagrees with the listing's */
	assert_true(snap.n_disagreements >= 2);
	assert_string_equal(snap.disagreements[0].subject, "bond7/eth2");
}

/* Archive entries: regular files with @data, or a symlink/hardlink when @link. */
struct entry {
	const char *path;
	const char *data;
	size_t size; /* 0: strlen(data) */
	int type;    /* AE_IFREG, AE_IFLNK, or 0 for a hardlink */
	const char *link;
};

static size_t build(const struct entry *e, size_t n, char *buf, size_t cap)
{
	struct archive *a = archive_write_new();
	size_t used = 0;

	assert_non_null(a);
	assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_memory(a, buf, cap, &used), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *ae = archive_entry_new();
		size_t size = e[i].size ? e[i].size : (e[i].data ? strlen(e[i].data) : 0);

		archive_entry_set_pathname(ae, e[i].path);
		archive_entry_set_perm(ae, 0644);
		if (e[i].type == AE_IFLNK) {
			archive_entry_set_filetype(ae, AE_IFLNK);
			archive_entry_set_symlink(ae, e[i].link);
		} else if (e[i].type == 0) {
			archive_entry_set_filetype(ae, AE_IFREG);
			archive_entry_set_hardlink(ae, e[i].link);
		} else {
			archive_entry_set_filetype(ae, AE_IFREG);
			archive_entry_set_size(ae, (la_int64_t)size);
		}
		assert_int_equal(archive_write_header(a, ae), ARCHIVE_OK);
		if (e[i].type == AE_IFREG && size) {
			if (e[i].data) {
				assert_int_equal(archive_write_data(a, e[i].data, size), size);
			} else {
				char *zeros = calloc(1, size);

				assert_non_null(zeros);
				assert_int_equal(archive_write_data(a, zeros, size), size);
				free(zeros);
			}
		}
		archive_entry_free(ae);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	return used;
}

static char proc21[4096];

static void hostile_archive(void **state)
{
	const struct entry e[] = {
		{"../proc/net/bonding/bond9", proc21, 0, AE_IFREG, NULL},
		{"/proc/net/bonding/bond8", proc21, 0, AE_IFREG, NULL},
		{"sosreport-x/proc/net/../net/bonding/bond6", proc21, 0, AE_IFREG, NULL},
		{"sosreport-x/proc/net/bonding/bond7", NULL, 0, AE_IFLNK, "/etc/passwd"},
		{"sosreport-x/proc/net/bonding/bond0", proc21, 0, AE_IFREG, NULL},
		{"sosreport-x/proc/net/bonding/bond5", NULL, 0, 0,
		 "sosreport-x/proc/net/bonding/bond0"},
		{"sosreport-x/proc/net/bonding/bond4", NULL, BC_SOS_MAX_FILE + 1u, AE_IFREG, NULL},
		{"sosreport-y/proc/net/bonding/bond3", proc21, 0, AE_IFREG, NULL},
	};
	size_t cap = 4u << 20, n;
	char *buf = malloc(cap);
	FILE *f = fopen(CASE21, "r");

	(void)state;
	assert_non_null(buf);
	assert_non_null(f);
	assert_true(fread(proc21, 1, sizeof(proc21) - 1, f) > 100);
	fclose(f);
	n = build(e, sizeof(e) / sizeof(e[0]), buf, cap);
	assert_true(n < 1u << 20); /* 16 MiB of zeros compress well */
	assert_int_equal(bc_sos_read_memory(buf, n, "hostile.tar.gz", &sos, &err), 0);
	free(buf);
	assert_int_equal(sos.n_files, 1);
	assert_string_equal(sos.files[0].name, "bond0");
	assert_string_equal(sos.root, "sosreport-x");
	assert_true(any_note("../proc/net/bonding/bond9: skipped: an absolute path or '..'"));
	assert_true(any_note("/proc/net/bonding/bond8: skipped: an absolute path"));
	assert_true(any_note("net/../net/bonding/bond6: skipped"));
	assert_true(any_note("bond7: skipped: a symlink entry"));
	assert_true(any_note("bond5: skipped: a hardlink entry"));
	assert_true(any_note("bond4: skipped: larger than 16 MiB"));
	assert_true(any_note("bond3: skipped: a second report folder ('sosreport-y'"));
}

/* A deeper tree first in the archive (a container's root) does not win. */
static void shallowest_report(void **state)
{
	const struct entry e[] = {
		{"sos-1/var/lib/c/proc/net/bonding/bond1", proc21, 0, AE_IFREG, NULL},
		{"sos-1/sos_commands/networking/ethtool_-i_eth1", "driver: e1000\n", 0, AE_IFREG,
		 NULL},
		{"sos-1/proc/net/bonding/bond0", proc21, 0, AE_IFREG, NULL},
	};
	size_t cap = 1u << 20, n;
	char *buf = malloc(cap);
	FILE *f = fopen(CASE21, "r");

	(void)state;
	assert_non_null(buf);
	assert_non_null(f);
	assert_true(fread(proc21, 1, sizeof(proc21) - 1, f) > 100);
	fclose(f);
	n = build(e, sizeof(e) / sizeof(e[0]), buf, cap);
	assert_int_equal(bc_sos_read_memory(buf, n, "nested.tar.gz", &sos, &err), 0);
	free(buf);
	assert_string_equal(sos.root, "sos-1");
	assert_int_equal(sos.n_files, 2);
	assert_string_equal(sos.files[0].name, "bond0");
	assert_true(any_note("var/lib/c/proc/net/bonding/bond1: skipped: a second report folder"));
	assert_int_equal(bc_sos_load(&sos, &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 1);
	assert_string_equal(snap.bonds[0].slaves[0].driver, "e1000");
}

static void not_a_report(void **state)
{
	char path[512];
	int fd;

	(void)state;
	assert_int_equal(bc_sos_read(CASE21, &sos, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "expected a sosreport folder or a tar archive"));
	bc_sos_free(&sos);
	bc_error_clear(&err);
	assert_int_equal(bc_sos_read("/nonexistent/sos", &sos, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/sos"));
	bc_sos_free(&sos);
	bc_error_clear(&err);
	/* an empty file and an empty folder are readable and hold no bond */
	snprintf(path, sizeof(path), "%s/empty.tar", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_not_equal(bc_sos_inspect(path, &snap, &err), 0);
	bc_snapshot_free(&snap);
	bc_error_clear(&err);
	assert_int_equal(bc_sos_inspect(tmpdir, &snap, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no bond found"));
	assert_non_null(strstr(err.msg, "found 0 bonding file(s)"));
}

/* /proc says eth2 is down with 1 failure; the ip listing says UP, 0. */
static void proc_ip_disagree(void **state)
{
	const struct bc_bond *b;
	bool mii = false, lfc = false;

	(void)state;
	assert_int_equal(bc_sos_inspect(SOS "/proc-ip-disagree", &snap, &err), 0);
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_int_equal(b->n_slaves, 2);
	/* the listing completes what /proc lacks */
	assert_int_equal(b->mtu.st, BC_KNOWN);
	assert_int_equal(b->mtu.v, 1500);
	assert_int_equal(b->slaves[0].mtu.v, 1500);
	assert_string_equal(b->slaves[1].driver, "e1000");
	for (size_t i = 0; i < snap.n_disagreements; i++) {
		const struct bc_disagreement *d = &snap.disagreements[i];

		assert_string_equal(d->subject, "bond0/eth2");
		assert_string_equal(d->source_a, "ip");
		assert_string_equal(d->source_b, "proc");
		mii |= !strcmp(d->field, "mii_status");
		lfc |= !strcmp(d->field, "link_failure_count") && !strcmp(d->value_a, "0") &&
		       !strcmp(d->value_b, "1");
	}
	assert_true(mii);
	assert_true(lfc);
	assert_int_equal(bc_findings_evaluate(&snap), 0);
	assert_non_null(finding("source-disagreement", "bond0/eth2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(folder, setup, teardown),
		cmocka_unit_test_setup_teardown(tar_xz, setup, teardown),
		cmocka_unit_test_setup_teardown(tar_gz, setup, teardown),
		cmocka_unit_test_setup_teardown(bond_named_from_stem, setup, teardown),
		cmocka_unit_test(names),
		cmocka_unit_test_setup_teardown(symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(symlinked_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(odd_file_name, setup, teardown),
		cmocka_unit_test_setup_teardown(named_by_listing, setup, teardown),
		cmocka_unit_test_setup_teardown(hostile_archive, setup, teardown),
		cmocka_unit_test_setup_teardown(shallowest_report, setup, teardown),
		cmocka_unit_test_setup_teardown(not_a_report, setup, teardown),
		cmocka_unit_test_setup_teardown(proc_ip_disagree, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
