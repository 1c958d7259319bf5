// Package mdsl reads and writes behavior trees as text in MDSL, the definition language of
// Mistreevous 4.3.1, which its online visualiser and editor read:
//
//	root {
//	    sequence while(HasAmmo) {
//	        action [Aim, $target]
//	        wait [500]
//	        action [Fire, 2, "left"] exit(Reload)
//	    }
//	}
//
// [Parse] reads a text into a tree of [bt.Call] leaves exactly as Mistreevous
// does, and [ParseFunc] reads one whose leaves are plain values of your
// own type (the Value/Succeed/Fail trees of [bt.Start]). [Format] and
// [FormatFunc] print a tree in the canonical form, and
// [FormatSource] reformats a text, keeping its named roots, branches
// and comments (the `bt fmt` command, cmd/bt).
//
// The grammar, as Mistreevous 4.3.1 reads it:
//
//	definition = root+                                   (one without a name: the main tree)
//	root       = "root" ("[" Name "]")? attr* "{" node "}"
//	node       = composite | decorator | leaf | "branch" "[" Name "]"
//	composite  = ("sequence" | "selector" | "parallel" | "race" | "all") attr* "{" node+ "}"
//	           | "lotto" ("[" weight ("," weight)* "]")? attr* "{" node+ "}"
//	decorator  = ("flip" | "succeed" | "fail") attr* "{" node "}"
//	           | ("repeat" | "retry") ("[" n "]" | "[" min "," max "]")? attr* "{" node "}"
//	leaf       = ("action" | "condition") "[" Name ("," value)* "]" attr*
//	           | "wait" ("[" ms "]" | "[" min "," max "]")? attr*
//	attr       = ("while" | "until") "(" Name ("," value)* ")" ("then" ("succeed" | "fail"))?
//	           | ("entry" | "step" | "exit") "(" Name ("," value)* ")"
//	value      = "null" | "true" | "false" | number | string | "$" property
//
// Every [ ] may be written ( ) and the other way round. Keywords are
// compared without case (after JavaScript's toUpperCase, so "ROOT",
// "Sequence" and even "ſequence" are keywords); null, true and false are
// lower case. A number is what JavaScript's Number reads in decimal: -2.5,
// .5, +1, 1e3, 5. (counts, weights and durations must be integers as
// Mistreevous decides it, parseFloat(x) === parseInt(x, 10), so 1e3 is not
// one). A string is "..." with no line break after a backslash; its first
// \" stands for a quote and every other character stands for itself (so
// "a\tb" is four characters, as in Mistreevous). A Name is any other word:
// anything up to white space or one of ( ) { } [ ] , and a $ followed by a
// letter or _ starts a property reference ([bt.Property]). /* comments */ may
// go anywhere, even inside a word or a string: they are deleted first. Any
// number of attributes may follow a node, in any order, each once.
// Arguments of a call after its name must not be names ("invalid action
// argument value 'B', must be string, number, boolean, agent property
// reference or null").
//
// Branches are expanded as [mistreevous.Parse] expands them: each branch
// [Name] becomes the child of root [Name] (that root's own attributes are
// ignored), a fresh copy at every place; an unknown name or a cycle is an
// error, and so is a named root that is never used but invalid. The limits
// are those of Mistreevous definitions: [mistreevous.MaxNodes] nodes once
// expanded, [mistreevous.MaxDepth] levels of nesting (the parser uses an
// explicit stack and refuses deeper texts; the builder recurses at most
// that deep), [mistreevous.MaxArgs] arguments, [mistreevous.MaxStringBytes] per name or string,
// [MaxBytes] of text.
//
// Our own kinds. Where Mistreevous has a node with the same semantics, its
// keyword is used; the others have keywords of their own in the same
// syntax (the root package's table of kinds):
//
//	kind                      keyword                 arguments
//	Leaf                      action [Name, ...]      (a leaf: its call, or one value for ParseFunc)
//	Condition                 condition [Name, ...]
//	Select                    selector
//	Sequence                  sequence
//	Negate                    flip                    (Mistreevous's flip is Negate)
//	AlwaysSucceed             succeed
//	AlwaysFail                fail
//	RepeatUntilFail           repeat_until_fail       (Mistreevous's repeat fails when its child fails: another kind)
//	RepeatUntilSucceed        repeat_until_succeed    (Mistreevous's retry fails after its attempts, or never ends)
//	RepeatN                   repeat_n [n]            n >= 2
//	Random                    random                  (Mistreevous's lotto is the stepped engine's, with its own draws)
//	RandomWeighted            random_weighted [w, ...] one weight >= 1 per child
//	Threshold                 threshold [s, f]        success and failure counts (negative: all but k)
//	ReactiveSequence          reactive_sequence       (FluentBehaviourTree's Sequence: any number of children)
//	ReactiveSelect            reactive_selector       (FluentBehaviourTree's Selector)
//	ReactiveParallel          reactive_parallel [f, s] FluentBehaviourTree's Parallel(fail, succeed)
//	EmptyInverter             empty_inverter          (FluentBehaviourTree's Inverter without a child)
//	Root, Wait, Parallel, Race, All, Lotto, Repeat, Retry: root, wait, parallel, race, all, lotto, repeat, retry
//
// Custom nodes have no text form. These keywords are the only thing the
// parser reads that Mistreevous would not: a text without them is plain
// Mistreevous MDSL.
//
// Leaves of Value/Succeed/Fail trees. [ParseFunc] takes a function from a
// leaf's text to your leaf type; a leaf (and an attribute) is then one
// identifier or one string: action [go_right] or action ["go right"].
//
// Errors are of type [*Error], with the file name, line and column (in bytes,
// from 1), and the line quoted with a caret under the column:
//
//	bot.mdsl:3:9: repeat takes one child, got 2
//	        action [B]
//	        ^
//
// Departures, all refusals of texts Mistreevous takes: a string touching a
// word (`a"b"`, which Mistreevous reads as the name a@@0@@), a word
// @@digits@@, the number forms Infinity, 0x.., 0o.. and 0b.. (which
// Mistreevous reads as Infinity and 0), a comma in place of a name
// (`action [,]`), an unterminated string (which Mistreevous leaves as
// characters of a name), and invalid UTF-8.
package mdsl
