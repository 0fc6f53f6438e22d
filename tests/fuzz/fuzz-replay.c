// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus replay for fuzz drivers without libFuzzer: runs
 * LLVMFuzzerTestOneInput() on every regular file of the directories given
 * on the command line (one level deep).  Used by ctest (label fuzz), so the
 * corpus is a regression test in every build, ASan included.
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

int main(int argc, char **argv)
{
	size_t files = 0;

	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (!d) {
			fprintf(stderr, "fuzz-replay: cannot open corpus directory '%s'\n", argv[i]);
			return 1;
		}
		while ((e = readdir(d))) {
			char path[4096];
			struct stat st;

			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			if (replay_file(path)) {
				fprintf(stderr, "fuzz-replay: cannot read '%s'\n", path);
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	printf("fuzz-replay: %zu inputs replayed\n", files);
	return files ? 0 : 1;
}
