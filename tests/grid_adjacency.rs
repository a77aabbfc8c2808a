//! Adjacency: every wall's neighbour names the cell back through the opposite wall, and edge
//! ids are canonical (both sides see one id, long edges are Void slots, short edges are
//! connector walls).

use octile::grid::{Dims, EdgeId, SlotKind};

const SIZES: [(u32, u32); 5] = [(1, 1), (1, 5), (5, 1), (10, 10), (7, 13)];

#[test]
fn neighbours_are_symmetric_and_edges_canonical() {
    for (cols, rows) in SIZES {
        let dims = Dims::from_octagons(cols, rows).unwrap();
        let mut seen = vec![0u8; dims.edge_index_len()];
        for slot in dims.cells() {
            for &dir in dims.walls(slot).unwrap() {
                let back = dir.opposite();
                let edge = dims.edge(slot, dir).unwrap();
                match dims.neighbor(slot, dir).unwrap() {
                    None => assert_eq!(edge, None, "{cols}x{rows}: border wall {slot} {dir:?} has an id"),
                    Some(n) => {
                        assert!(dims.contains(n));
                        assert!(n.kind().is_cell());
                        assert_eq!(
                            dims.neighbor(n, back).unwrap(),
                            Some(slot),
                            "{cols}x{rows}: {slot} {dir:?}"
                        );
                        let edge = edge.expect("inner walls have an id");
                        assert_eq!(dims.edge(n, back).unwrap(), Some(edge), "both sides see one id");
                        match edge {
                            EdgeId::Long(v) => {
                                assert_eq!(v.kind(), SlotKind::Void);
                                assert!(!dir.is_diagonal());
                                assert_eq!(slot.kind(), SlotKind::Octagon);
                                assert_eq!(n.kind(), SlotKind::Octagon);
                            }
                            EdgeId::Short(c, w) => {
                                assert_eq!(c.kind(), SlotKind::Connector);
                                assert!(c == slot || c == n);
                                let other = if c == slot { n } else { slot };
                                assert_eq!(other.kind(), SlotKind::Octagon);
                                let facing = if c == slot { dir } else { back };
                                assert_eq!(w.facing(), facing);
                            }
                        }
                        let sides = dims.edge_sides(edge).unwrap();
                        assert!(sides.contains(&(slot, dir)) && sides.contains(&(n, back)));
                        seen[dims.edge_index(edge).unwrap()] += 1;
                    }
                }
            }
        }
        // Every edge is seen by exactly its two cells, and nothing else has an id.
        for e in dims.edges() {
            assert_eq!(seen[dims.edge_index(e).unwrap()], 2, "{cols}x{rows}: {e}");
        }
        assert_eq!(seen.iter().filter(|&&c| c > 0).count(), dims.edges().count());
        let long = dims.edges().filter(|e| matches!(e, EdgeId::Long(_))).count();
        let (c, r) = (cols as usize, rows as usize);
        assert_eq!(long, (c - 1) * r + c * (r - 1));
        assert_eq!(dims.edges().count() - long, 4 * dims.connector_count());
    }
}
