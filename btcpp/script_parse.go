package btcpp

// The parser of BehaviorTree.CPP's scripting language (README §8.2): a
// Pratt parser that turns the tokens of script_lex.go into a tree of nodes,
// once; script_eval.go evaluates the tree without reparsing.
//
// Grammar (binding powers in brackets; higher binds tighter; the package
// documentation states it for users, doc.go):
//
//	script     = { ";" } statement { ";" { ";" } statement } { ";" } EOF
//	statement  = expr
//	expr       = prefix { infix }
//	prefix     = INT | REAL | STRING | "true" | "false" | IDENT
//	           | "(" expr ")"
//	           | ("-" | "~" | "!") expr[20]
//	infix      = (":=" | "=" | "+=" | "-=" | "*=" | "/=") expr[2]   [2]  left side an IDENT
//	           | "?" expr ":" expr[4]                                [4]  nests to the right
//	           | "||" expr[7]                                        [6]
//	           | "&&" expr[9]                                        [8]
//	           | cmp expr[11] { cmp expr[11] }                       [10] one chained node
//	           | ("|" | "^") expr[13]                                [12]
//	           | "&" expr[15]                                        [14]
//	           | ("+" | "-" | "..") expr[17]                         [16]
//	           | ("*" | "/") expr[19]                                [18]
//	cmp        = "==" | "!=" | "<" | ">" | "<=" | ">="
//
// expr[p] parses a prefix, then every infix operator whose binding power is
// at least p: binary operators parse their right side at their power + 1
// (left-associative), assignments at 2 (right-associative: a = b = 1), and
// the ternary's part after ':' at 4, so a ? b : c ? d : e is
// a ? b : (c ? d : e). Parse errors are *Error of type RuntimeError with the
// line and column (1-based, in bytes) inside the script text.

// node is a parsed expression.
type node interface {
	eval(b *board, scope int, enums map[string]int64) (Value, error)
}

// script is a parsed script: its statements.
type script struct {
	src   string
	stmts []node
}

type litNode struct{ v Value }

type nameNode struct{ key string }

type unaryNode struct {
	op opKind
	x  node
}

type binNode struct {
	op   opKind
	l, r node
}

// binNameLitNode is a binary operator between an entry (or enum) and a
// literal (x + 1).
type binNameLitNode struct {
	op  opKind
	key string
	r   Value
}

type cmpNode struct {
	ops []opKind
	xs  []node
}

// cmp1Node is a single comparison (the common case of cmpNode).
type cmp1Node struct {
	op   opKind
	l, r node
}

// cmpNameLitNode is a single comparison of an entry (or enum) with a
// literal (a > 3), the commonest condition.
type cmpNameLitNode struct {
	op  opKind
	key string
	r   Value
}

// cmpLitNode is a single comparison with a literal on the right.
type cmpLitNode struct {
	op opKind
	l  node
	r  Value
}

type ternaryNode struct{ c, a, b node }

type assignNode struct {
	op  opKind
	key string
	rhs node
}

// parser walks the tokens.
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) take() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

// parseScript parses a script once (§8.1, §8.2). An empty script is an
// error.
func parseScript(src string) (*script, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	s := &script{src: src}
	for {
		for p.peek().kind == tOp && p.peek().op == opSemi {
			p.take()
		}
		if p.peek().kind == tEOF {
			break
		}
		n, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		s.stmts = append(s.stmts, n)
		t := p.peek()
		if t.kind == tEOF {
			break
		}
		if t.kind != tOp || t.op != opSemi {
			return nil, scriptError(t.line, t.col, "unexpected %s after a statement (statements are separated by ';')", t.describe())
		}
	}
	if len(s.stmts) == 0 {
		t := p.peek()
		return nil, scriptError(t.line, t.col, "empty script")
	}
	return s, nil
}

// infixBP is an infix operator's binding power (0: not infix).
func infixBP(op opKind) int {
	switch op {
	case opDefine, opAssign, opPlusEq, opMinusEq, opTimesEq, opDivEq:
		return 2
	case opQuestion:
		return 4
	case opOr:
		return 6
	case opAnd:
		return 8
	case opEqual, opNotEqual, opLess, opGreater, opLessEq, opGreaterEq:
		return 10
	case opBitOr, opBitXor:
		return 12
	case opBitAnd:
		return 14
	case opPlus, opMinus, opConcat:
		return 16
	case opTimes, opDiv:
		return 18
	}
	return 0
}

func isCmp(op opKind) bool { return infixBP(op) == 10 }

// maxDepth bounds the nesting of a script so that a hostile one cannot
// exhaust the stack.
const maxDepth = 1000

// expr parses an expression whose infix operators bind at least minBP.
func (p *parser) expr(minBP int) (node, error) {
	return p.exprDepth(minBP, 0)
}

func (p *parser) exprDepth(minBP, depth int) (node, error) {
	if depth > maxDepth {
		t := p.peek()
		return nil, scriptError(t.line, t.col, "script nested too deeply")
	}
	lhs, err := p.prefix(depth)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp {
			return lhs, nil
		}
		bp := infixBP(t.op)
		if bp == 0 || bp < minBP {
			return lhs, nil
		}
		p.take()
		switch {
		case bp == 2:
			name, ok := lhs.(*nameNode)
			if !ok {
				return nil, scriptError(t.line, t.col, "the left side of '%s' must be a blackboard entry name", t.op)
			}
			rhs, err := p.exprDepth(2, depth+1)
			if err != nil {
				return nil, err
			}
			lhs = &assignNode{op: t.op, key: name.key, rhs: rhs}
		case t.op == opQuestion:
			a, err := p.exprDepth(0, depth+1)
			if err != nil {
				return nil, err
			}
			c := p.peek()
			if c.kind != tOp || c.op != opColon {
				return nil, scriptError(c.line, c.col, "expected ':' of the '?' at %d:%d, found %s", t.line, t.col, c.describe())
			}
			p.take()
			b, err := p.exprDepth(4, depth+1)
			if err != nil {
				return nil, err
			}
			lhs = &ternaryNode{c: lhs, a: a, b: b}
		case bp == 10:
			cn := &cmpNode{xs: []node{lhs}}
			op := t.op
			for {
				rhs, err := p.exprDepth(11, depth+1)
				if err != nil {
					return nil, err
				}
				cn.ops = append(cn.ops, op)
				cn.xs = append(cn.xs, rhs)
				n := p.peek()
				if n.kind != tOp || !isCmp(n.op) {
					break
				}
				p.take()
				op = n.op
			}
			if len(cn.ops) == 1 {
				lit, isLit := cn.xs[1].(*litNode)
				name, isName := cn.xs[0].(*nameNode)
				switch {
				case isLit && isName:
					lhs = &cmpNameLitNode{op: cn.ops[0], key: name.key, r: lit.v}
				case isLit:
					lhs = &cmpLitNode{op: cn.ops[0], l: cn.xs[0], r: lit.v}
				default:
					lhs = &cmp1Node{op: cn.ops[0], l: cn.xs[0], r: cn.xs[1]}
				}
			} else {
				lhs = cn
			}
		default:
			rhs, err := p.exprDepth(bp+1, depth+1)
			if err != nil {
				return nil, err
			}
			name, isName := lhs.(*nameNode)
			lit, isLit := rhs.(*litNode)
			if isName && isLit {
				lhs = &binNameLitNode{op: t.op, key: name.key, r: lit.v}
			} else {
				lhs = &binNode{op: t.op, l: lhs, r: rhs}
			}
		}
	}
}

// prefix parses a literal, a name, a parenthesized expression or a prefix
// operator.
func (p *parser) prefix(depth int) (node, error) {
	t := p.take()
	switch t.kind {
	case tInt, tReal, tString, tBool:
		return &litNode{v: t.val}, nil
	case tIdent:
		return &nameNode{key: t.text}, nil
	case tOp:
		switch t.op {
		case opLParen:
			n, err := p.exprDepth(0, depth+1)
			if err != nil {
				return nil, err
			}
			c := p.peek()
			if c.kind != tOp || c.op != opRParen {
				return nil, scriptError(c.line, c.col, "expected ')' closing the '(' at %d:%d, found %s", t.line, t.col, c.describe())
			}
			p.take()
			return n, nil
		case opMinus, opTilde, opNot:
			x, err := p.exprDepth(20, depth+1)
			if err != nil {
				return nil, err
			}
			return &unaryNode{op: t.op, x: x}, nil
		}
	}
	return nil, scriptError(t.line, t.col, "Expected operand at position %d (got '%s')", t.off, t.got())
}
