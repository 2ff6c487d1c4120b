// The names and words of CUDA's error codes, as a program's error checks print them: every code
// below (old and new, graphs, capture, pools, launches) is named as its enumerator is spelled and
// has words of its own.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#define NAMED(code) {code, #code}

int main() {
  const struct {
    cudaError_t code;
    const char *name;
  } codes[] = {
      NAMED(cudaSuccess),
      NAMED(cudaErrorInvalidValue),
      NAMED(cudaErrorMemoryAllocation),
      NAMED(cudaErrorMissingConfiguration),
      NAMED(cudaErrorLaunchOutOfResources),
      NAMED(cudaErrorInvalidDeviceFunction),
      NAMED(cudaErrorInvalidResourceHandle),
      NAMED(cudaErrorIllegalState),
      NAMED(cudaErrorStreamCaptureUnsupported),
      NAMED(cudaErrorStreamCaptureInvalidated),
      NAMED(cudaErrorStreamCaptureUnmatched),
      NAMED(cudaErrorStreamCaptureImplicit),
      NAMED(cudaErrorGraphExecUpdateFailure),
      NAMED(cudaErrorCooperativeLaunchTooLarge),
      NAMED(cudaErrorLaunchFailure),
      NAMED(cudaErrorIllegalAddress),
      NAMED(cudaErrorNotSupported),
      NAMED(cudaErrorUnknown),
  };
  int wrong = 0;
  for (const auto &c : codes) {
    const char *name = cudaGetErrorName(c.code);
    const char *words = cudaGetErrorString(c.code);
    if (strcmp(name, c.name) != 0 || words == NULL || words[0] == '\0' ||
        strcmp(words, "unrecognized error code") == 0) {
      printf("%s: named %s, \"%s\"\n", c.name, name, words ? words : "(null)");
      wrong++;
    }
  }
  printf("%s: %s\n", cudaGetErrorName(cudaErrorStreamCaptureUnsupported),
         cudaGetErrorString(cudaErrorStreamCaptureUnsupported));
  if (wrong) {
    printf("FAILED (%d wrong)\n", wrong);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
