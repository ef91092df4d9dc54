/* A shared library that is not a cunumpy plugin: it loads, but has no
 * cn_cuda_plugin_entry, so the loader must refuse it. */
__attribute__((visibility("default"))) int fake_not_a_plugin(void) {
  return 42;
}
