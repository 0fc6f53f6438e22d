// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sosreport walker (sos.h): which files of a report tree or tarball are
 * bonding evidence, read without ever leaving the tree.  Directories are
 * opened with openat2(RESOLVE_BENEATH) from the root's fd; tarballs are read
 * by libarchive from the stream, symlink and hardlink entries skipped.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bondcheck/sos.h"

#define MAX_DEPTH     24   /* path components of a kept file */
#define MAX_PREFIX    4	   /* folders above proc/ or sos_commands/ */
#define MAX_ROOT_SCAN 4096 /* top-level entries looked at for the report folder */

static void note(struct bc_sos *sos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct bc_sos *sos, const char *fmt, ...)
{
	va_list ap;

	if (sos->n_notes >= BC_SOS_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(sos->notes[sos->n_notes++], sizeof(sos->notes[0]), fmt, ap);
	va_end(ap);
}

static const char *const ip_files[] = {"ip_-d_address", "ip_-s_-d_link", "ip_-d_link"};

/* What a file is from its name below sos_commands/networking/; false if nothing. */
static bool classify_networking(const char *file, struct bc_sos_file *f)
{
	for (size_t i = 0; i < sizeof(ip_files) / sizeof(ip_files[0]); i++)
		if (!strcmp(file, ip_files[i])) {
			f->kind = BC_SOS_IP;
			f->rank = (int)i;
			snprintf(f->name, sizeof(f->name), "%s", file);
			return true;
		}
	if (!strncmp(file, "ethtool_-i_", 11) && file[11]) {
		f->kind = BC_SOS_ETHTOOL_I;
		snprintf(f->name, sizeof(f->name), "%s", file + 11);
		return true;
	}
	if (!strncmp(file, "ethtool_", 8) && file[8] && file[8] != '-') {
		f->kind = BC_SOS_ETHTOOL;
		snprintf(f->name, sizeof(f->name), "%s", file + 8);
		return true;
	}
	return false;
}

/*
 * Classify @path (relative, '/'-separated; "./" and empty components
 * ignored).  Sets @f's kind, name and path, and @prefix to the folders above
 * proc/ or sos_commands/.  Returns 1 when wanted, 0 when not, -1 when the
 * path is unsafe (absolute or with a ".." component).
 */
static int classify(const char *path, struct bc_sos_file *f, char *prefix, size_t cap)
{
	char buf[1024], *comp[MAX_DEPTH + 1], *save = NULL;
	size_t n = 0, pre;

	if (path[0] == '/')
		return -1;
	if (strlen(path) >= sizeof(buf))
		return 0;
	strcpy(buf, path);
	for (char *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, ".."))
			return -1;
		if (!strcmp(t, "."))
			continue;
		if (n > MAX_DEPTH)
			return 0;
		comp[n++] = t;
	}
	memset(f, 0, sizeof(*f));
	if (n >= 4 && !strcmp(comp[n - 4], "proc") && !strcmp(comp[n - 3], "net") &&
	    !strcmp(comp[n - 2], "bonding")) {
		f->kind = BC_SOS_PROC_BOND;
		snprintf(f->name, sizeof(f->name), "%s", comp[n - 1]);
		pre = n - 4;
	} else if (n >= 3 && !strcmp(comp[n - 3], "sos_commands") &&
		   !strcmp(comp[n - 2], "networking") && classify_networking(comp[n - 1], f)) {
		pre = n - 3;
	} else {
		return 0;
	}
	if (pre > MAX_PREFIX)
		return 0;
	prefix[0] = '\0';
	for (size_t i = 0; i < pre; i++) {
		size_t len = strlen(prefix);

		snprintf(prefix + len, cap - len, "%s%s", i ? "/" : "", comp[i]);
	}
	snprintf(f->path, sizeof(f->path), "%s", path);
	return 1;
}

/* Decide whether a file under @prefix belongs to the report kept so far. */
static bool same_report(struct bc_sos *sos, bool *root_set, const char *prefix, const char *path)
{
	if (!*root_set) {
		snprintf(sos->root, sizeof(sos->root), "%s", prefix);
		*root_set = true;
		return true;
	}
	if (!strcmp(sos->root, prefix))
		return true;
	note(sos, "%s: skipped: a second report folder ('%s'; the first was '%s')", path, prefix,
	     sos->root);
	return false;
}

static int keep(struct bc_sos *sos, struct bc_sos_file *f, char *data, size_t len,
		struct bc_error *err)
{
	struct bc_sos_file *arr;

	if (sos->n_files >= BC_SOS_MAX_FILES) {
		free(data);
		return bc_error_set(err, -EFBIG,
				    "%s: more than %u bonding and ethtool files; expected a "
				    "sosreport (tens of files)",
				    sos->origin, BC_SOS_MAX_FILES);
	}
	arr = realloc(sos->files, (sos->n_files + 1) * sizeof(*arr));
	if (!arr) {
		free(data);
		return -ENOMEM;
	}
	sos->files = arr;
	f->data = data;
	f->len = len;
	arr[sos->n_files++] = *f;
	return 0;
}

/* ---- directories ---- */

static int open_beneath(int rootfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NONBLOCK),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* Read a regular file of at most BC_SOS_MAX_FILE bytes; -EFBIG, -EINVAL (not regular). */
static int slurp(int fd, char **out, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size > (off_t)BC_SOS_MAX_FILE)
		return -EFBIG;
	/* room for the NUL and one byte more than the limit (a file that grew) */
	cap = (size_t)st.st_size + 4096 > BC_SOS_MAX_FILE + 1u ? BC_SOS_MAX_FILE + 1u
							       : (size_t)st.st_size + 4096;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > BC_SOS_MAX_FILE) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int read_one(struct bc_sos *sos, int rootfd, const char *rel, struct bc_error *err)
{
	char prefix[256];
	struct bc_sos_file f;
	char *data = NULL;
	size_t len = 0;
	int fd, rc;

	if (classify(rel, &f, prefix, sizeof(prefix)) != 1)
		return 0;
	fd = open_beneath(rootfd, rel, O_RDONLY);
	if (fd == -EXDEV || fd == -ELOOP) {
		note(sos, "%s: skipped: a symlink that leads out of the tree is never followed",
		     rel);
		return 0;
	}
	if (fd == -ENOSYS)
		return bc_error_set(
			err, -ENOSYS,
			"%s: this kernel has no openat2() (Linux 5.6+), which reading a "
			"tree without following symlinks out of it needs; give a tarball",
			sos->origin);
	if (fd < 0) {
		note(sos, "%s: skipped: %s", rel, strerror(-fd));
		return 0;
	}
	rc = slurp(fd, &data, &len);
	close(fd);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		note(sos, "%s: skipped: %s", rel,
		     rc == -EFBIG    ? "larger than 16 MiB"
		     : rc == -EINVAL ? "not a regular file"
				     : strerror(-rc));
		return 0;
	}
	return keep(sos, &f, data, len, err);
}

/* Every entry of folder @sub (relative to the root fd) through read_one(). */
static int read_folder(struct bc_sos *sos, int rootfd, const char *sub, struct bc_error *err)
{
	char rel[1024];
	struct dirent *de;
	DIR *d;
	int fd, rc = 0;

	fd = open_beneath(rootfd, sub, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		if (fd == -EXDEV || fd == -ELOOP)
			note(sos,
			     "%s: skipped: a symlink that leads out of the tree is never "
			     "followed",
			     sub);
		if (fd == -ENOSYS)
			return bc_error_set(err, -ENOSYS,
					    "%s: this kernel has no openat2() (Linux 5.6+), which "
					    "reading a tree without following symlinks out of it "
					    "needs; give a tarball",
					    sos->origin);
		return 0;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		if (snprintf(rel, sizeof(rel), "%s/%s", sub, de->d_name) >= (int)sizeof(rel))
			continue;
		rc = read_one(sos, rootfd, rel, err);
	}
	closedir(d);
	return rc;
}

static bool has_evidence(int rootfd, const char *prefix)
{
	static const char *const dirs[] = {"proc/net/bonding", "sos_commands/networking"};
	char p[512];

	for (size_t i = 0; i < 2; i++) {
		int fd;

		snprintf(p, sizeof(p), "%s%s%s", prefix, prefix[0] ? "/" : "", dirs[i]);
		fd = open_beneath(rootfd, p, O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
			close(fd);
			return true;
		}
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The report folder: the tree itself, or the first sub-folder (by name) with evidence. */
static int find_root(struct bc_sos *sos, int rootfd)
{
	char *names[MAX_ROOT_SCAN];
	size_t n = 0, found = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	if (has_evidence(rootfd, ""))
		return 0;
	fd = dup(rootfd);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while (n < MAX_ROOT_SCAN && (de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (has_evidence(rootfd, names[i]) && !found++)
			snprintf(sos->root, sizeof(sos->root), "%s", names[i]);
		else if (found > 1 && has_evidence(rootfd, names[i]))
			note(sos, "%s: skipped: a second report folder (the first is '%s')",
			     names[i], sos->root);
		free(names[i]);
	}
	return 0;
}

static int read_dir(const char *path, struct bc_sos *sos, struct bc_error *err)
{
	static const char *const subs[] = {"proc/net/bonding", "sos_commands/networking"};
	char sub[512];
	int rootfd, rc = 0;

	rootfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return bc_error_set(err, -errno, "cannot open the sosreport folder '%s': %s", path,
				    strerror(errno));
	rc = find_root(sos, rootfd);
	for (size_t i = 0; !rc && i < 2; i++) {
		snprintf(sub, sizeof(sub), "%s%s%s", sos->root, sos->root[0] ? "/" : "", subs[i]);
		rc = read_folder(sos, rootfd, sub, err);
	}
	close(rootfd);
	if (rc && rc != -ENOMEM && !(err && err->code))
		bc_error_set(err, rc, "reading the sosreport folder '%s': %s", path, strerror(-rc));
	return rc;
}

/* ---- archives ---- */

static int read_entry(struct archive *a, struct bc_sos *sos, struct bc_sos_file *f, int64_t size,
		      struct bc_error *err)
{
	size_t cap = size > 0 ? (size_t)size : 4096, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		la_ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= BC_SOS_MAX_FILE) {
				free(buf);
				note(sos, "%s: skipped: larger than 16 MiB", f->path);
				return 0;
			}
			cap = cap * 2 > BC_SOS_MAX_FILE ? BC_SOS_MAX_FILE : cap * 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		r = archive_read_data(a, buf + n, cap - n);
		if (r == 0)
			break;
		if (r < 0) {
			free(buf);
			return bc_error_set(err, -EIO, "%s: %s: damaged archive: %s", sos->origin,
					    f->path, archive_error_string(a));
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	return keep(sos, f, buf, n, err);
}

static int not_archive(struct archive *a, const char *origin, struct bc_error *err)
{
	return bc_error_set(err, -EINVAL,
			    "%s: expected a sosreport folder or a tar archive (.tar, .tar.xz, "
			    ".tar.gz, .tar.bz2); libarchive found: %s (a single "
			    "/proc/net/bonding file is read with --from-proc)",
			    origin,
			    archive_error_string(a) ? archive_error_string(a) : "no archive");
}

static int walk_archive(struct archive *a, struct bc_sos *sos, struct bc_error *err)
{
	struct archive_entry *e;
	bool root_set = false;
	unsigned long entries = 0;
	int r;

	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *path = archive_entry_pathname(e);
		struct bc_sos_file f;
		char prefix[256];
		int c;

		if (++entries > BC_SOS_MAX_ENTRIES ||
		    archive_filter_bytes(a, 0) > (la_int64_t)BC_SOS_MAX_UNPACKED)
			return bc_error_set(
				err, -EFBIG,
				"%s: more than %lu entries or %llu GiB unpacked; expected "
				"a sosreport",
				sos->origin, BC_SOS_MAX_ENTRIES,
				(unsigned long long)(BC_SOS_MAX_UNPACKED >> 30));
		if (!path)
			continue;
		c = classify(path, &f, prefix, sizeof(prefix));
		if (c < 0) {
			note(sos,
			     "%s: skipped: an absolute path or '..' in an archive is never "
			     "followed",
			     path);
			continue;
		}
		if (!c)
			continue;
		if (archive_entry_filetype(e) == AE_IFLNK || archive_entry_hardlink(e)) {
			note(sos, "%s: skipped: a %s entry is never followed", path,
			     archive_entry_hardlink(e) ? "hardlink" : "symlink");
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (archive_entry_size_is_set(e) &&
		    archive_entry_size(e) > (la_int64_t)BC_SOS_MAX_FILE) {
			note(sos, "%s: skipped: larger than 16 MiB", path);
			continue;
		}
		if (!same_report(sos, &root_set, prefix, path))
			continue;
		r = read_entry(a, sos, &f, archive_entry_size_is_set(e) ? archive_entry_size(e) : 0,
			       err);
		if (r)
			return r;
	}
	if (r != ARCHIVE_EOF)
		return entries ? bc_error_set(err, -EIO,
					      "%s: damaged archive after %lu entries: %s",
					      sos->origin, entries,
					      archive_error_string(a) ? archive_error_string(a)
								      : "unreadable")
			       : not_archive(a, sos->origin, err);
	return 0;
}

static struct archive *new_reader(void)
{
	struct archive *a = archive_read_new();

	if (!a)
		return NULL;
	/* only in-process decompressors: no external programs for a hostile input */
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	return a;
}

static int cmp_file(const void *a, const void *b)
{
	const struct bc_sos_file *x = a, *y = b;

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return strcmp(x->name, y->name);
}

static int finish(struct bc_sos *sos, int rc)
{
	if (!rc && sos->n_files)
		qsort(sos->files, sos->n_files, sizeof(sos->files[0]), cmp_file);
	return rc;
}

int bc_sos_read_memory(const void *buf, size_t len, const char *origin, struct bc_sos *out,
		       struct bc_error *err)
{
	struct archive *a = new_reader();
	int rc;

	if (!a)
		return -ENOMEM;
	snprintf(out->origin, sizeof(out->origin), "%s", origin);
	if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK)
		rc = not_archive(a, origin, err);
	else
		rc = walk_archive(a, out, err);
	archive_read_free(a);
	return finish(out, rc);
}

int bc_sos_read(const char *path, struct bc_sos *out, struct bc_error *err)
{
	struct archive *a;
	struct stat st;
	int rc;

	snprintf(out->origin, sizeof(out->origin), "%s", path);
	if (stat(path, &st) < 0)
		return bc_error_set(err, -errno, "cannot open the sosreport '%s': %s", path,
				    strerror(errno));
	out->is_dir = S_ISDIR(st.st_mode);
	if (S_ISDIR(st.st_mode))
		return finish(out, read_dir(path, out, err));
	if (!S_ISREG(st.st_mode))
		return bc_error_set(err, -EINVAL,
				    "'%s' is neither a folder nor a file; expected a sosreport "
				    "folder or tarball",
				    path);
	a = new_reader();
	if (!a)
		return -ENOMEM;
	if (!st.st_size)
		rc = bc_error_set(err, -EINVAL,
				  "%s: the file is empty; expected a sosreport folder or a tar "
				  "archive (.tar, .tar.xz, .tar.gz, .tar.bz2)",
				  path);
	else if (archive_read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK)
		rc = not_archive(a, path, err);
	else
		rc = walk_archive(a, out, err);
	archive_read_free(a);
	return finish(out, rc);
}

void bc_sos_free(struct bc_sos *sos)
{
	if (!sos)
		return;
	for (size_t i = 0; i < sos->n_files; i++)
		free(sos->files[i].data);
	free(sos->files);
	memset(sos, 0, sizeof(*sos));
}
