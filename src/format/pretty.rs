//! A JSON pretty-printer tuned for people reading dungeon files: arrays of numbers and
//! nested objects of plain values stay on one line; plan rows get one line each.

use serde_json::Value;

/// Writes `value` with two-space indentation and the layout rules above.
#[must_use]
pub fn to_pretty(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, 0, &mut out);
    out.push('\n');
    out
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

fn inline(v: &Value) -> String {
    serde_json::to_string(v).expect("invariant: JSON values serialise")
}

fn write_value(v: &Value, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    match v {
        Value::Array(items) if items.iter().all(Value::is_number) => {
            out.push_str(&inline(v).replace(',', ", "));
        }
        Value::Object(map) if depth >= 2 && map.values().all(is_scalar) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", inline(&Value::String(k.clone())), inline(v)))
                .collect();
            out.push_str(&format!("{{{}}}", fields.join(", ")));
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                write_value(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            for (i, (k, item)) in map.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&inline(&Value::String(k.clone())));
                out.push_str(": ");
                write_value(item, depth + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        _ => out.push_str(&inline(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_rules() {
        let v = serde_json::json!({"a": [1, 2], "b": [{"x": 1, "y": "z"}], "c": ["ab", "cd"], "d": []});
        let s = to_pretty(&v);
        assert_eq!(
            s,
            "{\n  \"a\": [1, 2],\n  \"b\": [\n    {\"x\": 1, \"y\": \"z\"}\n  ],\n  \"c\": [\n    \"ab\",\n    \"cd\"\n  ],\n  \"d\": []\n}\n"
        );
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
