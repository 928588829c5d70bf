// zk-porcupine: the independent cross-check of zk-check. It reads the write-and-CAS projection of a
// ZooKeeper register history (written by `zk-check register-projection`, one JSON object per line) and asks
// Porcupine whether it is linearizable against a versioned-register model: a znode that is created once,
// then set unconditionally (expected version -1) or conditionally (compare-and-set on the version), each
// successful set returning the new version. Operations that ended :info may or may not have happened; they
// never return, so Porcupine may place them anywhere after their call or leave them out (at the end).
//
// Exit codes: 0 linearizable, 1 not linearizable (HTML visualization written with -html), 2 bad input,
// 3 unknown (timeout).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// record is one line of the projection file.
type record struct {
	Client  int    `json:"client"`
	Call    int64  `json:"call"`
	Return  int64  `json:"return"` // -1: ended :info
	Key     string `json:"key"`
	F       string `json:"f"` // "create" or "set-data"
	Expect  int64  `json:"expect"`
	Data    string `json:"data"`
	Outcome string `json:"outcome"` // "ok", "fail", "info"
	Error   string `json:"error"`
	Version int64  `json:"version"` // version in the reply Stat, -1 when unknown
	Index   int64  `json:"index"`
}

type input struct {
	f      string
	key    string
	expect int64
	data   string
}

type output struct {
	outcome string
	err     string
	version int64
}

type register struct {
	exists  bool
	data    string
	version int64
}

func step(state, in, out interface{}) (bool, interface{}) {
	s := state.(register)
	i := in.(input)
	o := out.(output)
	switch i.f {
	case "create":
		switch o.outcome {
		case "ok":
			return !s.exists && (o.version < 0 || o.version == 0), register{true, i.data, 0}
		case "fail":
			return o.err == "node-exists" && s.exists, s
		default: // :info: if it could happen here it did; "never happened" is the linearization at the end
			if !s.exists {
				return true, register{true, i.data, 0}
			}
			return true, s
		}
	case "set-data":
		matches := s.exists && (i.expect == -1 || i.expect == s.version)
		switch o.outcome {
		case "ok":
			return matches && (o.version < 0 || o.version == s.version+1), register{true, i.data, s.version + 1}
		case "fail":
			switch o.err {
			case "bad-version":
				return s.exists && !matches, s
			case "no-node":
				return !s.exists, s
			default:
				return false, s
			}
		default:
			if matches {
				return true, register{true, i.data, s.version + 1}
			}
			return true, s
		}
	}
	return false, s
}

func describeOp(in, out interface{}) string {
	i := in.(input)
	o := out.(output)
	what := fmt.Sprintf("%s %s %s", i.f, i.key, i.data)
	if i.f == "set-data" && i.expect >= 0 {
		what = fmt.Sprintf("cas %s v%d→%s", i.key, i.expect, i.data)
	}
	switch o.outcome {
	case "ok":
		return fmt.Sprintf("%s → ok v%d", what, o.version)
	case "fail":
		return fmt.Sprintf("%s → %s", what, o.err)
	default:
		return what + " → info"
	}
}

func describeState(state interface{}) string {
	s := state.(register)
	if !s.exists {
		return "absent"
	}
	return fmt.Sprintf("%s v%d", s.data, s.version)
}

var model = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var keys []string
		for _, op := range history {
			k := op.Input.(input).key
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		sort.Strings(keys)
		var out [][]porcupine.Operation
		for _, k := range keys {
			out = append(out, byKey[k])
		}
		return out
	},
	Init:              func() interface{} { return register{} },
	Step:              step,
	Equal:             func(a, b interface{}) bool { return a.(register) == b.(register) },
	DescribeOperation: describeOp,
	DescribeState:     describeState,
}

func read(path string) ([]porcupine.Operation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []porcupine.Operation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if r.F != "create" && r.F != "set-data" {
			return nil, fmt.Errorf("%s:%d: unknown f %q (want create or set-data)", path, line, r.F)
		}
		ret := r.Return
		if r.Outcome == "info" || ret < 0 {
			ret = math.MaxInt64 / 2 // never returned
		}
		if ret < r.Call {
			return nil, fmt.Errorf("%s:%d: return %d before call %d", path, line, r.Return, r.Call)
		}
		ops = append(ops, porcupine.Operation{
			ClientId: r.Client,
			Input:    input{r.F, r.Key, r.Expect, r.Data},
			Call:     r.Call,
			Output:   output{r.Outcome, r.Error, r.Version},
			Return:   ret,
			Metadata: fmt.Sprintf("history op #%d", r.Index),
		})
	}
	return ops, sc.Err()
}

func main() {
	html := flag.String("html", "", "write Porcupine's HTML visualization here when the history is not linearizable")
	timeout := flag.Duration("timeout", 120*time.Second, "give up (exit 3) after this long")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: zk-porcupine [-html OUT.html] [-timeout 120s] PROJECTION.jsonl")
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ops, err := read(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "zk-porcupine:", err)
		os.Exit(2)
	}
	start := time.Now()
	res, info := porcupine.CheckOperationsVerbose(model, ops, *timeout)
	elapsed := time.Since(start)
	switch res {
	case porcupine.Ok:
		fmt.Printf("porcupine: linearizable (%d register operations, %.2fs)\n", len(ops), elapsed.Seconds())
	case porcupine.Illegal:
		fmt.Printf("porcupine: NOT linearizable (%d register operations, %.2fs)\n", len(ops), elapsed.Seconds())
		if *html != "" {
			if err := porcupine.VisualizePath(model, info, *html); err != nil {
				fmt.Fprintln(os.Stderr, "zk-porcupine: visualization:", err)
				os.Exit(2)
			}
			fmt.Printf("porcupine: visualization in %s\n", *html)
		}
		os.Exit(1)
	default:
		fmt.Printf("porcupine: unknown after %s (%d register operations)\n", *timeout, len(ops))
		os.Exit(3)
	}
}
