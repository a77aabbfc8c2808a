//! A scratch game on the runtime core, through the public API only (docs/runtime.md): its
//! own registry, used by `generate` through a palette (its rock, floor and stair), A* and a
//! flee map kept in the game's state next to the path graph, smoke over sight kept in the
//! game's state without touching the dungeon, a door opened and closed a thousand times with the graph kept
//! current, and a fireball whose bolt and burst each take the game's own blocking rule.

mod support;

use std::num::NonZeroU32;

use octile::dungeon::{Dungeon, EdgeDef, RegionChange, Registry, TileDef};
use octile::generate::{GenerateError, GenerateOptions, Palette, generate, generate_in};
use octile::grid::{Pos, disc};
use octile::path::{AStar, MapBounds, OwnedDijkstraMap, PathGraph, PathRules, octile_milli};
use octile::sight::{Hit, Opacity, Veil, ball, field_of_view, line_of_sight};

/// The game's own meaning of tiles: moss floors that cost a little more, basalt rock,
/// iron doors.
fn game_registry() -> Registry {
    Registry::from_defs(
        vec![
            TileDef::rock("basalt", '#'),
            TileDef { move_cost: 100, ..TileDef::floor("moss", ',') },
            TileDef::stair("ladder", 'H'),
        ],
        vec![
            EdgeDef::wall("masonry", '|'),
            EdgeDef::open("arch", 'o'),
            EdgeDef::door("iron_door", 'D', "iron_door_open"),
            EdgeDef::open_door("iron_door_open", '/', "iron_door"),
        ],
    )
    .unwrap()
}

/// What a game keeps between turns: the map, its graph, and the maps that read the graph,
/// side by side (the maps own their values).
struct Game {
    dungeon: Dungeon,
    graph: PathGraph,
    astar: AStar,
    flee: OwnedDijkstraMap,
    smoke: Veil,
    player: Pos,
    monster: Pos,
}

impl Game {
    fn flee_map(graph: &PathGraph, from: Pos) -> OwnedDijkstraMap {
        let all = MapBounds::everywhere(graph);
        let mut map = OwnedDijkstraMap::new(graph, &[from], &all, &PathRules::default()).unwrap();
        map.scale(-6, NonZeroU32::new(5).unwrap());
        map.rescan(graph).unwrap();
        map
    }
}

/// The cells in the walkable region of `p`.
fn reach(g: &PathGraph, p: Pos) -> Vec<Pos> {
    let regions = g.regions(&PathRules::default());
    let region = regions.region(g.node(p).unwrap().unwrap().index());
    g.nodes().filter(|v| regions.region(v.index()) == region).map(|v| g.pos(v)).collect()
}

#[test]
fn a_turn_loop_over_a_generated_dungeon_in_the_games_own_tiles() {
    let options =
        GenerateOptions { seed: 21, levels: 2, cols: 14, rows: 12, doors: 0.4, ..Default::default() };
    let generated = generate(&options, &mut |_| {}).unwrap();
    let palette = Palette::new(game_registry(), "basalt", "moss", "ladder").unwrap();
    let dungeon = generate_in(&palette, &options, &mut |_| {}).unwrap();
    assert_eq!(dungeon.registry(), &game_registry(), "nothing added: the maze needs only the palette");
    assert_eq!(
        dungeon.registry().tile_def(dungeon.tile(generated.entrance().unwrap()).unwrap()).unwrap().name,
        "moss"
    );
    let graph = PathGraph::new(&dungeon).unwrap();
    // Same meaning, same graph: the moss costs 100 more per cell entered, nothing else.
    let plain = PathGraph::new(&generated).unwrap();
    assert_eq!(graph.node_count(), plain.node_count());
    assert_eq!(graph.regions(&PathRules::default()), plain.regions(&PathRules::default()));

    let player = generated.entrance().unwrap();
    let rules = PathRules::default();
    // The monster starts at the reachable cell farthest from the player.
    let monster =
        reach(&graph, player).into_iter().max_by_key(|&p| (octile_milli(p.slot, player.slot), p)).unwrap();
    let flee = Game::flee_map(&graph, player);
    let mut game = Game { dungeon, graph, astar: AStar::new(), flee, smoke: Veil::new(), player, monster };

    // Turns: the player walks towards the monster along A*, the monster flees down the
    // flee map (rebuilt from the player's new cell each turn).
    let mut gap = Vec::new();
    for _turn in 0..12 {
        let route = game.astar.find(&game.graph, game.player, game.monster, &rules).unwrap().unwrap();
        assert!(route.cost >= octile_milli(game.player.slot, game.monster.slot) || route.steps.len() > 1);
        if let Some(&next) = route.steps.get(1)
            && next != game.monster
        {
            game.player = next;
        }
        game.flee = Game::flee_map(&game.graph, game.player);
        let away = game.flee.descend(&game.graph, game.monster).unwrap().unwrap();
        if let Some(&next) = away.steps.get(1) {
            assert!(
                game.flee.value(&game.graph, next).unwrap()
                    < game.flee.value(&game.graph, game.monster).unwrap()
            );
            game.monster = next;
        }
        gap.push(game.astar.find(&game.graph, game.player, game.monster, &rules).unwrap().unwrap().cost);
    }
    assert!(gap.iter().all(|&c| c > 0), "the monster is never caught standing still: {gap:?}");

    // Smoke over sight: the player's view shrinks, the dungeon does not change. The game
    // keeps the smoke in its state and lays it over the dungeon for a turn's queries.
    let before = game.dungeon.clone();
    let eye = game.player;
    for slot in disc(game.dungeon.dims(), eye.slot, 3).filter(|&s| s != eye.slot) {
        game.smoke.block_cell(Pos { slot, ..eye });
    }
    let clear = field_of_view(&game.dungeon, eye, 60.0).unwrap();
    let smoke = game.smoke.over(&game.dungeon);
    let smoky = field_of_view(&smoke, eye, 60.0).unwrap();
    assert!(
        smoky.len() < clear.len() && smoky.iter().all(|s| clear.contains(s)),
        "{} of {}",
        smoky.len(),
        clear.len()
    );
    assert!(smoky.iter().all(|s| s == eye.slot || !game.smoke.blocks_cell(Pos { slot: s, ..eye })));
    assert_eq!(game.dungeon, before);

    // A door opened and closed 1,000 times, the game's graph kept current throughout.
    let dims = game.dungeon.dims();
    let iron = game.dungeon.registry().expect_edge("iron_door").unwrap();
    let (door, dir) = game
        .dungeon
        .cells()
        .flat_map(|p| dims.walls(p.slot).unwrap().iter().map(move |&d| (p, d)))
        .find(|&(p, d)| {
            game.dungeon.edge_state(p, d).unwrap() == Some(iron) && game.dungeon.carved_seam(p, d).is_some()
        })
        .expect("a closed door between two rooms");
    let mut joins = 0;
    for i in 0..1000 {
        let change = if i % 2 == 0 {
            game.dungeon.open_door_with(&mut game.graph, door, dir).unwrap()
        } else {
            game.dungeon.close_door_with(&mut game.graph, door, dir).unwrap()
        };
        assert_eq!(change.walkable.after, i % 2 == 0);
        assert_ne!(change.walk_regions, RegionChange::Unknown);
        joins += usize::from(change.walk_regions == RegionChange::Joined);
    }
    let fresh = PathGraph::new(&game.dungeon).unwrap();
    for rules in [PathRules::default(), PathRules { open_doors: true }] {
        assert_eq!(game.graph.regions(&rules), fresh.regions(&rules));
        assert!(fresh.nodes().all(|v| game.graph.successors(v, &rules).eq(fresh.successors(v, &rules))));
    }
    assert!(joins == 0 || joins == 500, "the same door joins every time it opens, or never: {joins}");
    assert_eq!(game.dungeon, before, "an even number of toggles");
    // The kept flee map still reads the kept graph.
    assert!(game.flee.value(&game.graph, game.monster).is_ok());

    // A fireball: the bolt stops at the first creature (the game's rule), the burst does
    // not spread past a pillar of salt the game placed (its own rule), through the smoke.
    let target = reach(&game.graph, game.player)
        .into_iter()
        .filter(|&t| t != game.player && t.level == game.player.level)
        .filter(|&t| line_of_sight(&game.dungeon, game.player, t).unwrap())
        .max_by_key(|&t| (octile_milli(t.slot, game.player.slot), t))
        .unwrap();
    let creature = |p: Pos| p == game.monster;
    let (shot, burst) = ball(&game.dungeon, game.player, target, 20.0, creature, |_| false).unwrap();
    assert_eq!(shot.path.first(), Some(&game.player));
    assert!(matches!(shot.hit, Hit::Reached | Hit::Wall(_) | Hit::Blocker(_)));
    let centre = *shot.path.last().unwrap();
    assert!(burst.contains(&centre) || !game.dungeon.cell_passes(centre));
    let salt = burst.iter().copied().find(|&p| p != centre);
    if let Some(salt) = salt {
        let (_, behind_salt) =
            ball(&game.dungeon, game.player, target, 20.0, creature, |p| p == salt).unwrap();
        assert!(behind_salt.len() <= burst.len() && behind_salt.contains(&salt));
    }
    let smoke = game.smoke.over(&game.dungeon);
    let (_, in_smoke) = ball(&smoke, game.player, target, 20.0, creature, |_| false).unwrap();
    assert!(in_smoke.iter().all(|&p| smoke.cell_passes(p)));
    assert!(!burst.is_empty());
}

/// A palette names its tiles and finds its edge states by meaning; a tile of another
/// meaning, or a missing one, is refused naming its role.
#[test]
fn a_palette_refuses_tiles_that_mean_something_else() {
    let role = |e: GenerateError| match e {
        GenerateError::Palette { role, reason } => format!("{role}: {reason}"),
        e => panic!("not a palette error: {e}"),
    };
    let said = role(Palette::new(game_registry(), "moss", "moss", "ladder").unwrap_err());
    assert!(said.starts_with("rock: tile `moss` is not one"), "{said}");
    let said = role(Palette::new(game_registry(), "basalt", "lava", "ladder").unwrap_err());
    assert_eq!(said, "floor: the registry has no tile `lava`");
    let doorless = Registry::from_defs(
        vec![TileDef::rock("basalt", '#'), TileDef::floor("moss", ','), TileDef::stair("ladder", 'H')],
        vec![EdgeDef::wall("masonry", '|'), EdgeDef::open("arch", 'o')],
    )
    .unwrap();
    let said = role(Palette::new(doorless, "basalt", "moss", "ladder").unwrap_err());
    assert!(said.starts_with("door: the registry has no edge state that means what `door` does"), "{said}");
}

/// A room graph with keys, locks and one-way doors, written in the game's tiles: its room
/// table, markers, locks and keys carry over, the mission doors join the game's registry
/// under their own names, and the flow proof still holds; the file
/// round-trips. A translation to a tile of another meaning is refused by name.
#[test]
fn a_realised_mission_in_the_games_tiles_keeps_its_flow() {
    use octile::dungeon::Translation;
    let made = support::realised_mission("one-level.json", 24, 1, 1);
    let palette = Palette::new(game_registry(), "basalt", "moss", "ladder").unwrap();
    let d = palette.apply(&made).unwrap();
    assert!(d.registry().edge("door_locked").is_some() && d.registry().edge("masonry").is_some());
    assert_eq!((d.entrance(), d.exit()), (made.entrance(), made.exit()));
    assert_eq!(d.rooms(), made.rooms());
    assert_eq!(d.locks().collect::<Vec<_>>(), made.locks().collect::<Vec<_>>());
    assert_eq!(d.keys().collect::<Vec<_>>(), made.keys().collect::<Vec<_>>());
    let (a, b) = (octile::flow::verify(&made), octile::flow::verify(&d));
    assert!(b.holds(), "{:?}", b.failures);
    assert_eq!(a.critical_path, b.critical_path);
    // The moss costs 100 more for each cell entered; nothing else differs.
    assert_eq!(b.critical_cost, a.critical_cost + 100 * (a.critical_path.len() as u64 - 1));
    let json = octile::format::to_json(&d);
    assert!(json.contains("{\"name\": \"moss\"") && !json.contains("{\"name\": \"floor\""));
    assert_eq!(octile::format::to_json(&octile::format::from_json(&json).unwrap()), json);
    // Rock written as moss: refused, naming the tile.
    let mut wrong = Translation {
        tiles: (0..made.registry().tiles().len()).map(|_| palette.floor).collect(),
        edges: (0..made.registry().edges().len()).map(|_| palette.wall).collect(),
    };
    wrong.tiles[0] = palette.floor;
    let said = made.translated(game_registry(), &wrong).unwrap_err().to_string();
    assert!(said.contains("tile `solid` maps to `moss`"), "{said}");
}
