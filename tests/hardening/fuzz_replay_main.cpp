// Replays fuzzer inputs without libFuzzer (any compiler): each argument is
// a file or a directory of files, each file one input for
// LLVMFuzzerTestOneInput. A crash is the failure; exit code 0 otherwise.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

int replay_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path.c_str());
        return 1;
    }
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    fprintf(stderr, "fuzz_replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    int files = 0, errors = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz_replay: no such path %s\n", argv[i]);
            return 1;
        }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            while (dirent *e = d ? readdir(d) : nullptr) {
                if (e->d_name[0] == '.') continue;
                errors += replay_file(std::string(argv[i]) + "/" + e->d_name);
                ++files;
            }
            if (d) closedir(d);
        } else {
            errors += replay_file(argv[i]);
            ++files;
        }
    }
    printf("fuzz_replay: %d inputs replayed\n", files);
    return (errors || files == 0) ? 1 : 0;
}
