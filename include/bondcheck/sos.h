/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `inspect --from-sos DIR|TARBALL`: the bonding evidence of a sosreport
 * (sos(1), Red Hat's and Canonical's support bundle) or of any directory
 * laid out like one.
 *
 * Two steps:
 *   bc_sos_read()/bc_sos_read_memory()  the walker (src/decode/sos-walk.c):
 *       finds the files below and copies their bytes into a struct bc_sos;
 *   bc_sos_load()                       the merge (src/workflow/sos.c):
 *       parses them into one snapshot, as the live inspect joins its sources.
 *
 * Files looked for, relative to the report's root: for a folder, the folder
 * itself or the first sub-folder by name that holds them (sos packs
 * sosreport-host-2024-01-01/); in an archive, the shallowest folder (up to 4
 * deep) above such files, the first in archive order on a tie:
 *   proc/net/bonding/<any name>                   one bond each (bc_proc_parse)
 *   sos_commands/networking/ip_-d_address         the ip listing; else
 *     ip_-s_-d_link, else ip_-d_link              (bc_ip_parse)
 *   sos_commands/networking/ethtool_-i_<dev>      driver, firmware, bus-info
 *   sos_commands/networking/ethtool_<dev>         speed, duplex, link detected
 *
 * Safety (the input may be hostile): a directory is opened from its root fd
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so a symlink that
 * leads out of the tree (or an absolute one) is never followed, only noted;
 * a tarball is read with libarchive (tar, gzip, xz, bzip2, zstd, lzma),
 * whose symlink and hardlink entries are skipped, and entries with absolute
 * paths or ".." components are ignored.  Nothing is ever written to disk.
 * Limits: BC_SOS_MAX_FILE bytes per file kept, BC_SOS_MAX_FILES files and
 * BC_SOS_MAX_KEPT bytes kept in all,
 * BC_SOS_MAX_ENTRIES archive entries and BC_SOS_MAX_UNPACKED bytes
 * decompressed; past them the read stops with -EFBIG.
 */
#ifndef BONDCHECK_SOS_H
#define BONDCHECK_SOS_H

#include <stdbool.h>
#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

#define BC_SOS_MAX_FILE	    (16u << 20)	  /* = BC_PROC_MAX_SIZE */
#define BC_SOS_MAX_FILES    4096	  /* bond + ethtool files kept */
#define BC_SOS_MAX_KEPT	    (256u << 20)  /* bytes of those files together */
#define BC_SOS_MAX_ENTRIES  2000000ul	  /* archive entries looked at */
#define BC_SOS_MAX_UNPACKED (16ull << 30) /* bytes decompressed: 16 GiB */
#define BC_SOS_MAX_NOTES    64

enum bc_sos_kind {
	BC_SOS_PROC_BOND = 0, /* proc/net/bonding/<name> */
	BC_SOS_IP,	      /* sos_commands/networking/ip_... listing */
	BC_SOS_ETHTOOL_I,     /* sos_commands/networking/ethtool_-i_<dev> */
	BC_SOS_ETHTOOL,	      /* sos_commands/networking/ethtool_<dev> */
};

/* One file kept: its kind, the name after the prefix (bond file or device), bytes. */
struct bc_sos_file {
	enum bc_sos_kind kind;
	char name[256];	  /* file name (bond) or device name (ethtool) */
	char path[512];	  /* path below the input, for messages and origin */
	char prefix[256]; /* its report folder ("" for the top of the input) */
	char *data;	  /* owned, NUL-terminated; len excludes the NUL */
	size_t len;
	int rank; /* BC_SOS_IP: 0 ip_-d_address, 1 ip_-s_-d_link, 2 ip_-d_link */
};

struct bc_sos {
	char origin[256];	   /* the DIR or TARBALL as given */
	bool is_dir;		   /* origin is a folder (else an archive) */
	char root[256];		   /* the report's folder below it, "" for the tree itself */
	struct bc_sos_file *files; /* owned; by kind, then name */
	size_t n_files;
	size_t kept;			   /* bytes of all files' data together */
	char notes[BC_SOS_MAX_NOTES][256]; /* what was skipped and why */
	size_t n_notes;
};

/*
 * bc_sos_read() - walk the directory or tarball @path and keep the files
 * listed above in @out (zeroed by the caller; free with bc_sos_free()).
 *
 * A directory is walked with openat2(); anything else is opened as an
 * archive.  Symlinks out of the tree, symlink/hardlink archive entries,
 * unsafe paths, files over BC_SOS_MAX_FILE and a second report folder are
 * skipped with a note in @out->notes, never an error.
 *
 * Return: 0 (even when nothing was found: bc_sos_load() says so);
 *   -ENOENT, -EACCES, ... when @path cannot be opened (message names it);
 *   -EINVAL when @path is neither a directory nor an archive libarchive
 *     reads as tar (the message says what libarchive found);
 *   -EFBIG past BC_SOS_MAX_ENTRIES, BC_SOS_MAX_UNPACKED, BC_SOS_MAX_FILES or
 *     BC_SOS_MAX_KEPT;
 *   -EIO for a damaged archive (libarchive's message);
 *   -ENOSYS when the kernel has no openat2() (Linux < 5.6) for a directory;
 *   -ENOMEM.
 */
int bc_sos_read(const char *path, struct bc_sos *out, struct bc_error *err);

/*
 * bc_sos_read_memory() - as bc_sos_read() for an archive of @len bytes at
 * @buf (libarchive's archive_read_open_memory); @origin names it in notes.
 */
int bc_sos_read_memory(const void *buf, size_t len, const char *origin, struct bc_sos *out,
		       struct bc_error *err);

/* bc_sos_free() - release what @sos owns and zero it; NULL allowed. */
void bc_sos_free(struct bc_sos *sos);


/*
 * bc_sos_load() - build @snap (zeroed by the caller; source BC_SRC_SOS)
 * from @sos, as the live inspect joins netlink and /proc:
 *   - each proc/net/bonding file is a bond (bc_proc_parse), named by
 *     bc_ifname_from_file() (bondcheck/names.h) or "bondN" with a warning; a file that is not
 *     bonding text is a warning, not an error;
 *   - the ip listing (the best-ranked one) completes each bond and its
 *     slaves (MTU, carrier, current and permanent MAC, operstate) and is
 *     cross-checked with /proc field by field (bc_merge_proc_as(), sources
 *     "ip" and "proc"): every difference is a source-disagreement; a bond
 *     only the listing shows is kept from it alone; a /proc bond whose name
 *     the listing does not know takes the name of the listing's bond that
 *     shows one of its slaves, when /proc has no bond of that name;
 *   - ethtool -i gives each slave's driver, version, firmware and bus-info;
 *     ethtool DEV completes speed, duplex, autoneg, port and carrier and is
 *     cross-checked with /proc's speed/duplex and ip's carrier.
 * The walker's notes become warnings.  Each bond's origin is the bonding
 * file's path inside @sos->origin.
 *
 * Return: 0; -ENOENT when the report holds neither a proc/net/bonding file
 *   nor a bond in an ip listing (the message says what was looked for and
 *   what the tree had); -ENOMEM.
 */
int bc_sos_load(const struct bc_sos *sos, struct bc_snapshot *snap, struct bc_error *err);

/* bc_sos_inspect() - bc_sos_read() @path then bc_sos_load() it into @snap. */
int bc_sos_inspect(const char *path, struct bc_snapshot *snap, struct bc_error *err);

#endif
