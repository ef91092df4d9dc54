/* Loads the CUDA plugin the way the core does (dlopen + entry point) and
 * checks the handshake, the table and the probe. Without a driver (as on
 * the CI machines: cudaGetDeviceCount returns error 35) the probe must fail
 * with CN_ERR_DEVICE and a reason that says so; with a GPU it must pass and
 * count the devices. Usage: plugin_probe <path/to/libcunumpy_cuda.so> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cuda_api.h"

static int g_failures;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL (%s:%d): %s: ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      g_failures++;                                                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <plugin>\n", argv[0]);
    return 2;
  }
  /* libcunumpy first, as in real use (the plugin resolves its services). */
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  CHECK(h != NULL, "dlopen: %s", dlerror());
  if (h == NULL)
    return 1;
  void *sym = dlsym(h, CN_PLUGIN_ENTRY_NAME);
  CHECK(sym != NULL, "no entry point");
  if (sym == NULL)
    return 1;
  cn_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  CHECK(entry(CUNUMPY_ABI_VERSION + 1) == NULL, "accepted a wrong ABI");
  const cn_backend *t = entry(CUNUMPY_ABI_VERSION);
  CHECK(t != NULL, "refused the right ABI");
  if (t == NULL)
    return 1;
  CHECK(t->abi_version == CUNUMPY_ABI_VERSION, "abi %u", t->abi_version);
  CHECK(t->record_size == sizeof(cn_backend) &&
            t->device_size == sizeof(cn_backend_device) &&
            t->compute_size == sizeof(cn_backend_compute),
        "sizes %u %u %u", t->record_size, t->device_size, t->compute_size);
  CHECK(strcmp(t->name, "cuda") == 0, "name %s", t->name);
  CHECK(t->device_type == CN_DEVICE_CUDA, "device type %d", t->device_type);
  const cn_backend_device *d = t->device;
  const cn_backend_compute *k = t->compute;
  if (d == NULL || k == NULL) {
    fprintf(stderr, "FAIL: a table is NULL\n");
    return 1;
  }
  CHECK(d && k && d->probe && d->device_count && d->current_device &&
            d->alloc && d->free && d->copy_to_host && d->copy_from_host &&
            d->get_proc && k->assign && k->fill && k->elementwise &&
            k->where && k->reduce && k->moments,
        "a member is NULL");
  const struct cn_cuda_api *api =
      d && d->get_proc ? d->get_proc("cuda_api") : NULL;
  CHECK(api != NULL && api->size == sizeof(struct cn_cuda_api),
        "cuda_api table missing or of another size");
  CHECK(d == NULL || d->get_proc == NULL || d->get_proc("no_such") == NULL,
        "get_proc answers an unknown name");
  /* every cuda_api member is filled */
  if (api) {
    const char *p = (const char *)api + sizeof(uint32_t);
    const char *end = (const char *)api + sizeof(struct cn_cuda_api);
    p +=
        (sizeof(void *) - (sizeof(uint32_t) % sizeof(void *))) % sizeof(void *);
    int i = 0;
    for (; p + sizeof(void *) <= end; p += sizeof(void *), i++) {
      void *fp;
      memcpy(&fp, p, sizeof fp);
      CHECK(fp != NULL, "cuda_api member %d is NULL", i);
    }
  }
  char reason[1024];
  memset(reason, 0, sizeof reason);
  cn_status st = d->probe(reason, sizeof reason);
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (st == CN_OK) {
    CHECK(d->device_count() > 0, "probe passed with no device");
    printf("probe: CUDA available, %d device(s)\n", (int)d->device_count());
  } else {
    printf("probe: %s: %s\n", cn_status_name(st), reason);
    CHECK(st == CN_ERR_DEVICE, "status %d", (int)st);
    CHECK(strlen(reason) > 20, "reason too short: '%s'", reason);
    CHECK(d->device_count() == 0, "devices without a probe");
    if (drv == NULL) {
      /* no driver at all: cudart reports cudaErrorInsufficientDriver */
      CHECK(strstr(reason, "no NVIDIA driver") != NULL &&
                strstr(reason, "error 35") != NULL,
            "reason does not explain the missing driver: '%s'", reason);
    }
  }
  printf("plugin_probe: %d failures\n", g_failures);
  return g_failures ? 1 : 0;
}
