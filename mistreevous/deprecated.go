package mistreevous

import bt "github.com/zipbt/behaviortree"

// Marshal is [Format].
//
// Deprecated: use Format, the verb of mdsl.Format: both format packages
// read with Parse and write with Format.
func Marshal(def bt.Node[bt.Call]) ([]byte, error) { return Format(def) }
