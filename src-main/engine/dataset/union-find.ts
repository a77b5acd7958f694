/** Disjoint sets over row positions; a set's root is its smallest row (its first occurrence). */
export class UnionFind {
  private parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size).map((_, i) => i);
  }
  find(x: number): number {
    let root = x;
    while (this.parent[root] !== root) root = this.parent[root] as number;
    while (this.parent[x] !== root) {
      const next = this.parent[x] as number;
      this.parent[x] = root;
      x = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    // The smaller index is the root, so a group's root is its first occurrence.
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }
}
