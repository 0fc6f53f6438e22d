// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus replay for fuzz drivers without libFuzzer: runs
 * LLVMFuzzerTestOneInput() on every regular file of the directories given
 * on the command line and of their subdirectories (as libFuzzer reads a
 * corpus).  Used by ctest (label fuzz), so the corpus is a regression test
 * in every build, ASan included.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

/* Replay every regular file under @dir (depth <= 8).  Returns 0 or -1. */
static int replay_dir(const char *dir, int depth, size_t *files)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	if (!d) {
		fprintf(stderr, "fuzz-replay: cannot open corpus directory '%s'\n", dir);
		return -1;
	}
	while (!r && (e = readdir(d))) {
		char path[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8) {
			r = replay_dir(path, depth + 1, files);
		} else if (S_ISREG(st.st_mode)) {
			if (replay_file(path)) {
				fprintf(stderr, "fuzz-replay: cannot read '%s'\n", path);
				r = -1;
			}
			(*files)++;
		}
	}
	closedir(d);
	return r;
}

int main(int argc, char **argv)
{
	size_t files = 0;

	for (int i = 1; i < argc; i++)
		if (replay_dir(argv[i], 0, &files))
			return 1;
	printf("fuzz-replay: %zu inputs replayed\n", files);
	return files ? 0 : 1;
}
