//! [`Object`]: an object's members found once, and the lookups that pass
//! over a value whose extent is known.

use super::{Node, key_is, key_text, known_text, raw_members_knowing};
use std::borrow::Cow;

/// An object's members found once, for reading several of them: a raw
/// object is walked once instead of once per key.
pub struct Object<'a> {
    node: Node<'a>,
    /// The members of a raw object with at most `INDEXED` of them.
    raw: [(&'a [u8], &'a [u8]); INDEXED],
    len: usize,
    /// A raw object with more members: looked up by walking it.
    walk: bool,
    /// What [`Node::object_knowing`] was given.
    known: &'a [u8],
}

const INDEXED: usize = 12;

impl<'a> Object<'a> {
    /// The keys not in `common` nor `known`, in order. A raw key is compared
    /// as written and decoded only when it is not one of them.
    pub fn keys_outside(&self, common: &[&str], known: &[&str]) -> Vec<Cow<'a, str>> {
        let unlisted = |k: &Cow<'a, str>| !common.contains(&&**k) && !known.contains(&&**k);
        match self.node {
            Node::Raw(_) if !self.walk => self.raw[..self.len]
                .iter()
                .filter(|(k, _)| !common.iter().chain(known).any(|c| key_is(k, c)))
                .map(|(k, _)| key_text(k))
                .filter(unlisted)
                .collect(),
            node => node.keys().filter(unlisted).collect(),
        }
    }

    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        match self.node {
            Node::Raw(_) if !self.walk => {
                self.raw[..self.len].iter().find(|(k, _)| key_is(k, key)).map(|(_, v)| Node::Raw(v))
            }
            node => node.get(key),
        }
    }

    pub fn node(&self) -> Node<'a> {
        self.node
    }

    /// The object at `key`, walked as this one was (see [`Node::object_knowing`]).
    pub fn object_at(&self, key: &str) -> Option<Object<'a>> {
        let known = (!self.known.is_empty()).then_some(Node::Raw(self.known));
        self.get(key).filter(|n| n.is_object()).map(|n| n.object_knowing(known))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = Cow<'a, str>> + '_ {
        let indexed = matches!(self.node, Node::Raw(_)) && !self.walk;
        let (some, all) =
            if indexed { (Some(self.raw[..self.len].iter()), None) } else { (None, Some(self.node.keys())) };
        some.into_iter().flatten().map(|(k, _)| key_text(k)).chain(all.into_iter().flatten())
    }
}

impl<'a> Node<'a> {
    /// [`Node::get`], passing over `known` as [`Node::object_knowing`] does.
    pub fn get_knowing(self, key: &str, known: Option<Node<'a>>) -> Option<Node<'a>> {
        match self {
            Node::Raw(b) => {
                raw_members_knowing(b, known_text(known)).find(|(k, _)| key_is(k, key)).map(|(_, v)| Node::Raw(v))
            }
            Node::Value(_) => self.get(key),
        }
    }

    /// This object's members, found once (nothing for other types).
    pub fn object(self) -> Object<'a> {
        self.object_knowing(None)
    }

    /// [`Node::object`], passing over `known` (a value inside this one whose
    /// extent was noted at load) without reading it, here and in the
    /// objects found in it by [`Object::object_at`].
    pub fn object_knowing(self, known: Option<Node<'a>>) -> Object<'a> {
        let known = known_text(known);
        match self {
            Node::Raw(b) => Object::of_raw_knowing(self, raw_members_knowing(b, known), known),
            Node::Value(_) => Object::of_raw(self, std::iter::empty()),
        }
    }
}

impl<'a> Object<'a> {
    /// A raw object's members as they were already found (by the check
    /// that accepted its text), in order: `node`'s own, as
    /// [`Node::object`] finds them.
    pub fn of_raw(node: Node<'a>, members: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Object<'a> {
        Object::of_raw_knowing(node, members, &[])
    }

    /// [`Object::of_raw`], keeping what [`Node::object_knowing`] was given.
    fn of_raw_knowing(
        node: Node<'a>,
        members: impl Iterator<Item = (&'a [u8], &'a [u8])>,
        known: &'a [u8],
    ) -> Object<'a> {
        let mut o = Object { node, raw: [(&[][..], &[][..]); INDEXED], len: 0, walk: false, known };
        for member in members {
            if o.len == INDEXED {
                o.walk = true;
                break;
            }
            o.raw[o.len] = member;
            o.len += 1;
        }
        o
    }
}
