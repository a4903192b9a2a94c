/**
 * The run queue as Linux 2.4 keeps it: a circular doubly linked list through each runnable task's
 * `run_list` (include/linux/list.h). list_del and list_add_tail are O(1) pointer updates: an array
 * needed a splice per sched_yield of a task that was not at its head (move_last_runqueue), the
 * costliest single line of Seaman's LinuxThreads side in the locked-down realm.
 */
export class RunListNode<T> {
  next: RunListNode<T> = this;
  prev: RunListNode<T> = this;
  /** the list it is on (null: none) */
  on: RunList<T> | null = null;
  constructor(readonly task: T | null) {}
}

export class RunList<T> {
  /** runqueue_head: its `task` is null; it is also the runqueue_lock's cache-line owner key */
  readonly head = new RunListNode<T>(null);
  length = 0;
  /** the list as an array, made when read after a change (plugins and cold code read `Kernel.runqueue`) */
  private view: readonly T[] | null = [];

  /** list_add_tail */
  addTail(n: RunListNode<T>): void {
    if (n.on !== null) throw new Error("list_add_tail of a node that is already on a run queue");
    const h = this.head, last = h.prev;
    n.next = h;
    n.prev = last;
    last.next = n;
    h.prev = n;
    n.on = this;
    this.length++;
    this.view = null;
  }

  /** list_del (the node points at itself again, as list_del_init leaves it) */
  del(n: RunListNode<T>): void {
    n.prev.next = n.next;
    n.next.prev = n.prev;
    n.next = n;
    n.prev = n;
    n.on = null;
    this.length--;
    this.view = null;
  }

  /** Is `n` on this list? (not another kernel's: a task of an earlier run is on none of this one's) */
  has(n: RunListNode<T>): boolean {
    return n.on === this;
  }

  /**
   * The members in list order, as an array (the same one until the list changes). Writing to it
   * changes nothing on the list, only this copy until the list next changes. Not frozen: V8 11
   * loads a frozen array's elements several times slower, and the plugin schedulers that read it
   * (CFS) walk it on every schedule().
   */
  toArray(): readonly T[] {
    if (this.view) return this.view;
    const a: T[] = [];
    for (let n = this.head.next; n !== this.head; n = n.next) a.push(n.task!);
    return (this.view = a);
  }
}
