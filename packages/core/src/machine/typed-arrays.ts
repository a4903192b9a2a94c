/**
 * Hot typed arrays with a private, unfrozen prototype chain.
 *
 * Under Hardened JavaScript every intrinsic is frozen, and V8 11.x (Node 20) makes stores into a
 * typed array much slower when anything on its prototype chain is frozen (the simulator ran 2-2.5x
 * slower; see shared/reference/isolation-notes.md). The simulator's own typed arrays (register
 * files, counters, path cost tables) therefore get a copy of their prototype chain that ends in
 * null. Only host code holds these arrays; nothing foreign code can reach shares these prototypes
 * across runs. Outside a locked-down realm the arrays keep their ordinary prototypes.
 */
type TypedArrayCtor = { readonly prototype: object; readonly name: string };

const privateProtos = new Map<TypedArrayCtor, object>();
let typedArrayProtoCopy: object | undefined;

function copyOwn(from: object, proto: object | null): object {
  const to = Object.create(proto) as object;
  for (const key of Reflect.ownKeys(from)) {
    if (key === "constructor") continue;
    Object.defineProperty(to, key, Object.getOwnPropertyDescriptor(from, key)!);
  }
  return to;
}

function privateProtoOf(ctor: TypedArrayCtor): object {
  let p = privateProtos.get(ctor);
  if (!p) {
    const typedArrayProto = Object.getPrototypeOf(ctor.prototype) as object;
    typedArrayProtoCopy ??= copyOwn(typedArrayProto, null);
    p = copyOwn(ctor.prototype, typedArrayProtoCopy);
    privateProtos.set(ctor, p);
  }
  return p;
}

/** True once lockdown() has frozen the intrinsics of this realm. */
export function realmIsLockedDown(): boolean {
  return Object.isFrozen(Object.prototype);
}

/** Gives `a` a private prototype chain when the realm is locked down (see above); returns `a`. */
export function hot<T extends ArrayBufferView>(a: T): T {
  if (realmIsLockedDown()) Object.setPrototypeOf(a, privateProtoOf(a.constructor as unknown as TypedArrayCtor));
  return a;
}
