/** A bound on how many holders run at once; the others wait in order, each until its own deadline. */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /**
   * Resolves once a slot is this caller's; rejects with `late()` if none is free before `deadline`
   * (`Date.now()` time). Every resolved acquire must be followed by one `release()`.
   */
  acquire(deadline: number, late: () => Error): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      if (Number.isFinite(deadline))
        timer = setTimeout(
          () => {
            this.waiting.splice(this.waiting.indexOf(grant), 1);
            reject(late());
          },
          Math.max(0, deadline - Date.now()),
        );
      this.waiting.push(grant);
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
