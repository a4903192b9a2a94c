/**
 * /dev/siglab-disk: a simulated block/char device with latency (drivers/siglab-disk.ts). Request start
 * and completion follow the 2.4 block layer (drivers/block/ll_rw_blk.c); the char interface
 * (write starts a request, read returns 32-byte completion records) is the model's own driver.
 */
import { op, type PathDef } from "../../../exec/path.js";

export const DEVICE_PATHS: PathDef[] = [
  {
    name: "siglab_disk.make_request",
    phase: "syscall.body",
    ops: [
      op("generic_make_request", "alu", 8, "blk_get_queue; bounds check; q->make_request_fn"),
      op("__make_request", "cli", 1, "spin_lock_irq(&io_request_lock)"),
      op("__make_request", "alu", 20, "elevator merge scan (empty queue: no merge)"),
      op("get_request", "slab_alloc", 1, "struct request from the free list"),
      op("add_request", "alu", 8, "list_add; plug the queue"),
      op("__make_request", "sti", 1, "spin_unlock_irq"),
      op("siglab_disk_request_fn", "store", 6, "program the controller (MMIO writes modelled as stores)"),
    ],
  },
  {
    name: "siglab_disk.end_request",
    phase: "irq.device",
    ops: [
      op("siglab_disk_intr", "load", 2, "read the controller status"),
      op("end_that_request_first", "alu", 10, "bh->b_end_io; advance the request"),
      op("end_that_request_last", "alu", 4, "complete(req->waiting)"),
      op("blkdev_release_request", "slab_alloc", 1, "request back to the free list"),
    ],
  },
  {
    name: "siglab_disk.record",
    phase: "irq.device",
    ops: [op("siglab_disk_intr", "store", 8, "append a 32-byte completion record to the file's buffer")],
  },
  {
    name: "siglab_disk_write",
    phase: "pipe.io",
    ops: [
      op("sys_write", "alu", 4, "fget(fd); FMODE_WRITE"),
      op("sys_write", "call_indirect", 1, "file->f_op->write"),
      op("siglab_disk_write", "alu", 6, "build the request (the data is DMAed: no copy)"),
    ],
  },
  {
    name: "siglab_disk_read",
    phase: "pipe.io",
    ops: [
      op("sys_read", "alu", 4, "fget(fd); FMODE_READ"),
      op("sys_read", "call_indirect", 1, "file->f_op->read"),
      op("siglab_disk_read", "alu", 6, "records ready? O_NONBLOCK? whole records that fit"),
    ],
  },
];
