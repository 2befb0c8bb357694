;; Forms models reach for (issue 14 item 6): multi-arity fn/defn, defn-, letfn, reduced, finite repeat,
;; str/capitalize, str/reverse, hex/octal/radix literals, quoted collections; require/ns/import and transducer
;; arities are refused with what to write instead (deviations.ts pins those).
(defn f ([x] (f x 10)) ([x y] (+ x y))) [(f 1) (f 1 2)]
(defn g ([] :none) ([x] [:one x]) ([x & more] [:many x more])) [(g) (g 1) (g 1 2 3)]
((fn ([a] a) ([a b] (* a b))) 3 4)
((fn fact ([n] (fact n 1)) ([n acc] (if (<= n 1) acc (fact (dec n) (* acc n))))) 10)
(defn h "docstring" ([x] (inc x)) ([x y] (h (+ x y)))) (h 1 2)
(defn mx ([x] x) ([x y] (if (> x y) x y)) ([x y & more] (reduce mx (mx x y) more))) (mx 3 9 2 7)
(map (fn ([x] (* 2 x)) ([x y] (+ x y))) [1 2 3])
(reduce (fn ([] 0) ([a b] (+ a b))) [1 2 3])
(defn- helper [x] (* x x)) (helper 7)
(defn- helper2 "doc" ([x] x) ([x y] [x y])) (helper2 1 2)
(letfn [(ev? [n] (if (zero? n) true (od? (dec n)))) (od? [n] (if (zero? n) false (ev? (dec n))))] [(ev? 10) (od? 7)])
(letfn [(sq [x] (* x x))] (map sq [1 2 3]))
(letfn [(fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))] (fib 15))
(letfn [(a [x] (b (inc x))) (b [x] (* 10 x))] (a 1))
(letfn [(walk [xs] (map (fn [x] (if (vector? x) (walk x) (inc x))) xs))] (walk [1 [2 [3]]]))
(let [k 5] (letfn [(add-k [x] (+ x k))] (add-k 1)))
(letfn [(f2 ([x] (f2 x 1)) ([x y] (* x y)))] (f2 4))
(reduce (fn [acc x] (if (> acc 10) (reduced acc) (+ acc x))) 0 (range 100))
(reduce (fn [acc x] (if (= x 3) (reduced :found) acc)) nil [1 2 3 4])
(reduce (fn [acc x] (if (nil? x) (reduced acc) (conj acc x))) [] [1 2 nil 4])
(reduce-kv (fn [acc k v] (if (> v 1) (reduced k) acc)) nil {:a 1 :b 2 :c 3})
(reduced? (reduced 1))
(reduced? 1)
(unreduced (reduced 5))
(unreduced 5)
(repeat 3 :x)
(repeat 0 :x)
(repeat -2 :x)
(apply str (repeat 3 "ab"))
(vec (repeat 2 [1 2]))
(count (repeat 1000 nil))
(str/capitalize "hello world")
(str/capitalize "hELLO")
(str/capitalize "")
(str/capitalize "1abc")
(clojure.string/capitalize "x")
(map str/capitalize ["ann" "BOB"])
(str/reverse "hello")
(str/reverse "")
(clojure.string/reverse "ab c")
0x10
0xff
0XFF
-0x10
(+ 0x10 1)
010
-017
2r1010
16rFF
36rZZ
7N
(+ 1N 2)
'(1 2 3)
'(1 (2 3) [4])
(count '(1 2 3))
(first '(:a :b))
(map inc '(1 2 3))
(= '(1 2) [1 2])
'[1 2]
'{:a 1 :b [2]}
'#{1 2}
(conj '(1 2) 3)
(into [] '(1 2))
(quote (1 2))
'()
(filter odd? '(1 2 3 4 5))
(require '[clojure.string :as str])
(ns my.app (:require [clojure.string :as s]))
(import '[java.util Date])
(into [] (comp (filter odd?) (map inc)) [1 2 3 4])
(transduce (map inc) + [1 2 3])
(sequence (map inc) [1 2])
1/3
(+ 1/2 1/2)
1.5M
08
(eduction (map inc) [1 2])
(into [] (map inc) [1 2])
