/**
 * First module a sandbox process evaluates: gives up every permission it holds. Started from source it holds none
 * (`deno run` without `--allow-*` flags); as a compiled binary it is the same executable as the host and starts with
 * the permissions baked into it, which must be gone before any language code runs.
 * @module
 */

/** Every Deno permission name. */
export const PERMISSION_NAMES = ["read", "write", "net", "env", "sys", "run", "ffi", "import"] as const;

for (const name of PERMISSION_NAMES) {
  try {
    Deno.permissions.revokeSync({ name });
  } catch {
    // a permission this Deno does not know: nothing to revoke
  }
}
