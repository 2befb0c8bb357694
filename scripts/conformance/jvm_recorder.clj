;; Reads one PTC-Lisp/Clojure program per stdin line and prints one JSON line per program:
;; {"ok":true,"printed":"<pr-str>","prints":[...]} or {"ok":false,"error":"<Class>: <message>","prints":[...]}.
;; Each program is evaluated with load-string in a namespace of its own (defs never leak), with str/set/walk aliases,
;; on a thread of its own that is stopped after 3 s. Run by scripts/conformance/record.ts; never by the test suite.
(ns jvm-recorder
  (:require [clojure.string] [clojure.set] [clojure.walk]))

(defn- json-str [^String s]
  (let [sb (StringBuilder. "\"")]
    (doseq [c s]
      (case c
        \" (.append sb "\\\"")
        \\ (.append sb "\\\\")
        \newline (.append sb "\\n")
        \return (.append sb "\\r")
        \tab (.append sb "\\t")
        (if (< (int c) 32)
          (.append sb (format "\\u%04x" (int c)))
          (.append sb c))))
    (.append sb "\"")
    (.toString sb)))

(defn- root-cause [^Throwable t]
  (loop [t t]
    (if (and (instance? clojure.lang.Compiler$CompilerException t) (.getCause t)) (recur (.getCause t)) t)))

(defn- eval-program [^String src]
  (let [out (java.io.StringWriter.)
        nsym (gensym "prog")
        result (promise)
        th (Thread.
            (fn []
              (deliver result
                       (try
                         (binding [*ns* (create-ns nsym) *out* out]
                           (refer-clojure)
                           (alias 'str 'clojure.string)
                           (alias 'set 'clojure.set)
                           (alias 'walk 'clojure.walk)
                           ;; PTC's flat environment also has these unqualified (the names that clash with
                           ;; clojure.core, like replace and reverse, stay qualified)
                           (refer 'clojure.string :only '[join split split-lines trim triml trimr trim-newline blank?
                                                          upper-case lower-case starts-with? ends-with? includes?
                                                          index-of last-index-of])
                           (refer 'clojure.set :only '[union intersection difference subset? superset?])
                           (refer 'clojure.walk :only '[walk prewalk postwalk keywordize-keys stringify-keys])
                           (let [v (load-string src)
                                 p (pr-str v)]
                             (if (> (count p) 100000) {:error "TooLarge: printed value over 100000 chars"} {:printed p})))
                         (catch Throwable t
                           (let [c (root-cause t)]
                             {:error (str (.getName (class c)) ": " (.getMessage c))}))))))]
    (.setDaemon th true)
    (.start th)
    (let [r (deref result 3000 ::timeout)]
      (remove-ns nsym)
      (if (= r ::timeout)
        (do (.stop th) {:error "Timeout: over 3 s" :out ""})
        (assoc r :out (str out))))))

(doseq [line (line-seq (java.io.BufferedReader. *in*))]
  (let [{:keys [printed error out]} (eval-program line)
        prints (let [o (or out "")] (if (= o "") [] (clojure.string/split (clojure.string/replace o #"\n$" "") #"\n" -1)))]
    (println (str "{\"ok\":" (if error "false" "true")
                  (if error (str ",\"error\":" (json-str error)) (str ",\"printed\":" (json-str printed)))
                  ",\"prints\":[" (clojure.string/join "," (map json-str prints)) "]}"))
    (flush)))
