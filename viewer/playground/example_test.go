package playground_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/viewer/playground"
)

// ExampleNew serves the playground of an MDSL file and steps it through
// the page's API, as the page does: the step stops at the first call the
// agent must answer.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "play")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "bot.mdsl")
	os.WriteFile(file, []byte("root { sequence { condition [HasAmmo] action [Fire] } }"), 0o644)

	s, err := playground.New(playground.Config{
		File: file,
		Addr: "127.0.0.1:8765", // where it is served (an http.Server with ReadHeaderTimeout and IdleTimeout)
		Parse: func(name string, src []byte) (playground.Definition, error) {
			n, err := mdsl.Parse(name, src)
			return playground.Definition{Stepped: n}, err
		},
		Poll: -1, // do not watch the file
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	post := func(path, body string) {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765"+path, strings.NewReader(body))
		req.Header.Set("X-BT-Token", s.Token()) // the page has it in a meta element
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			fmt.Println(w.Code, w.Body)
			return
		}
		var st struct {
			Ask *struct {
				Call, Text string
				Choices    []string
			}
			Version struct{ States string }
		}
		json.Unmarshal(w.Body.Bytes(), &st)
		if st.Ask != nil {
			fmt.Printf("asks: %s %s %v\n", st.Ask.Call, st.Ask.Text, st.Ask.Choices)
		} else {
			fmt.Println("states:", st.Version.States)
		}
	}
	post("/api/step", "")
	post("/api/answer", `{"value":"true"}`)
	post("/api/answer", `{"value":"success"}`)
	// Output:
	// asks: condition HasAmmo [true false]
	// asks: action Fire [success failure running async]
	// states: ssss
}
