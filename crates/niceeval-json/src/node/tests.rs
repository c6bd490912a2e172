use super::*;

/// Both forms answer every question the same way, at every depth.
fn same(v: &Value, text: &[u8]) {
    let (a, b) = (Node::Value(v), Node::Raw(text));
    assert_eq!(a.json_type(), b.json_type(), "{v}");
    assert_eq!(a.as_str(), b.as_str());
    assert_eq!(a.as_bool(), b.as_bool());
    assert_eq!(a.as_f64(), b.as_f64(), "{v}");
    assert_eq!(a.as_u64(), b.as_u64(), "{v}");
    assert_eq!(a.as_i64(), b.as_i64(), "{v}");
    assert_eq!(a.number_text(), b.number_text(), "{v}");
    assert_eq!(a.len(), b.len());
    assert_eq!(*b.to_value(), *v);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    a.write_compact(&mut x);
    b.write_compact(&mut y);
    assert_eq!(String::from_utf8(x).unwrap(), String::from_utf8(y).unwrap(), "compact JSON");
    assert_eq!(a.str_prefix(3), b.str_prefix(3));
    assert_eq!(*a.to_value_prefix(1000), *b.to_value_prefix(1000));
    assert_eq!(*a.to_value_prefix(2), *b.to_value_prefix(2));
    let ka: Vec<_> = a.keys().collect();
    let kb: Vec<_> = b.keys().collect();
    assert_eq!(ka, kb);
    for k in &ka {
        let (x, y) = (a.get(k).unwrap(), b.get(k).unwrap());
        same(x.to_value().as_ref(), y.raw_text().unwrap());
    }
    assert!(b.get("no such key").is_none());
    let (oa, ob) = (a.object(), b.object());
    assert_eq!(oa.keys().collect::<Vec<_>>(), ob.keys().collect::<Vec<_>>());
    for k in &ka {
        assert_eq!(*oa.get(k).unwrap().to_value(), *ob.get(k).unwrap().to_value());
    }
    assert!(ob.get("no such key").is_none());
    for (x, y) in a.elements().zip(b.elements()) {
        same(x.to_value().as_ref(), y.raw_text().unwrap());
    }
    assert_eq!(a.elements().count(), b.elements().count());
}

#[test]
fn raw_text_reads_as_its_value() {
    let text = r#"{"type":"operation.started", "operationId" : "a\"b","operation":{"kind":"tool","name":"Read",
        "input":{"path":"a.rs","n":2.50,"big":1e400,"neg":-3,"u":18446744073709551615,"t":true,"f":false,"z":null,
        "s":"caf\u00e9 \ud83d\ude00 \n tab\t","arr":[1,[2,{"k":[]}],{},"x"]}},"k\u0065y":"escaped key","":"empty"}"#;
    let v: Value = serde_json::from_str(text).unwrap();
    same(&v, text.as_bytes());
    let raw = Node::Raw(text.as_bytes());
    assert_eq!(raw.get("operationId").unwrap().as_str().unwrap(), "a\"b");
    assert_eq!(raw.get("key").unwrap().as_str().unwrap(), "escaped key");
    let input = raw.get("operation").and_then(|o| o.get("input")).unwrap();
    assert_eq!(input.get("n").unwrap().number_text().unwrap(), "2.50");
    assert_eq!(input.get("big").unwrap().as_f64(), None, "not finite");
    assert_eq!(input.get("s").unwrap().str_prefix(4).unwrap(), "café");
    let want = r#"{"path":"a.","n":2.50,"big":1e400,"neg":-3,"u":18446744073709551615,"t":true,"f":false,"z":null,"s":"ca","arr":[1,[2,{"k":[]}],{},"x"]}"#;
    assert_eq!(*input.to_value_prefix(2), serde_json::from_str::<Value>(want).unwrap());
}

#[test]
fn objects_of_many_members_are_walked() {
    let text: String = format!("{{{}}}", (0..20).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(","));
    let v: Value = serde_json::from_str(&text).unwrap();
    same(&v, text.as_bytes());
    let o = Node::Raw(text.as_bytes()).object();
    assert_eq!(o.get("k19").and_then(Node::as_u64), Some(19));
    assert_eq!(o.keys().count(), 20);
}

#[test]
fn random_documents_read_the_same_both_ways() {
    let mut random = crate::random::RandomJson::distinct_keys(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let text = random.document();
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        // Distinct keys only (the loader keeps nothing else as text).
        same(&v, text.as_bytes());
    }
}

/// Every value of a raw text (its extent), depth first.
fn values_of(node: Node<'_>, out: &mut Vec<std::ops::Range<usize>>, base: *const u8) {
    if let Node::Raw(b) = node {
        let start = b.as_ptr() as usize - base as usize;
        out.push(start..start + b.len());
        for (_, v) in raw_members(b) {
            values_of(Node::Raw(v), out, base);
        }
        for e in node.elements() {
            values_of(e, out, base);
        }
    }
}

#[test]
fn a_known_value_is_passed_over_and_changes_no_member() {
    let mut random = crate::random::RandomJson::distinct_keys(0x5851_f42d_4c95_7f2d);
    for _ in 0..1500 {
        let text = format!("{{\"type\":\"x\",\"operation\":{{\"input\":{},\"k\":1}},\"z\":[]}}", random.document());
        let b = text.as_bytes();
        let mut values = Vec::new();
        values_of(Node::Raw(b), &mut values, b.as_ptr());
        let plain: Vec<_> = raw_members(b).collect();
        let operation =
            |o: &Object<'_>| o.object_at("operation").map(|op| op.keys().map(Cow::into_owned).collect::<Vec<_>>());
        let want = operation(&Node::Raw(b).object());
        // Any value of the text as the known one (a payload is one), or a
        // slice that starts inside a value (a wrong note): the same members.
        for range in values.iter().cloned().chain([1..3, 9..b.len() - 1]) {
            let known = &b[range];
            assert_eq!(raw_members_knowing(b, known).collect::<Vec<_>>(), plain, "{text} knowing {known:?}");
            let o = Node::Raw(b).object_knowing(Some(Node::Raw(known)));
            assert_eq!(operation(&o), want, "{text}");
            let k = |n: Node<'_>| n.get_knowing("k", Some(Node::Raw(known))).and_then(Node::as_u64);
            assert_eq!(Node::Raw(b).get_knowing("operation", Some(Node::Raw(known))).and_then(k), Some(1), "{text}");
        }
    }
}
