; untangle's roles for Python (tree-sitter-python 0.23.6). Capture names are the roles of
; src/parse/syntax.h; the analysis only sees captured nodes, nested by source range.

(import_statement) @import
(import_from_statement) @import

; classes
(class_definition name: (identifier) @class.name) @class
(class_definition superclasses: (argument_list (_) @class.super))

; functions, methods, lambdas
(function_definition name: (identifier) @func.name parameters: (parameters) @func.params body: (block) @func.body) @func
(parameters (identifier) @param)
(parameters (default_parameter name: (identifier) @param))
(parameters (typed_parameter (identifier) @param))
(parameters (typed_default_parameter name: (identifier) @param))
(lambda body: (_) @func.body) @func
(lambda_parameters (identifier) @param)

; decorators: their expression is read through the roles below
(decorator) @deco

; bindings
(assignment left: (identifier) @assign.target right: (_) @assign.value) @assign
(assignment left: (attribute) @assign.target right: (_) @assign.value) @assign
; A, B = "a", "b": each name bound to the value at its place (index.c pairs them)
(assignment left: (pattern_list (identifier) @assign.target) right: (expression_list (_) @assign.value)) @assign

; loops over one name: the walker binds it to what is looped over
(for_statement left: (identifier) @loop.var right: (_) @loop.iter body: (_) @loop.body) @loop

; what a function gives back (fixture values)

; calls
(call function: (identifier) @call.name arguments: (argument_list) @call.args) @call
(call function: (attribute object: (_) @call.recv attribute: (identifier) @call.name) arguments: (argument_list) @call.args) @call
(argument_list (_) @arg)
(keyword_argument name: (identifier) @arg.kw.name value: (_) @arg.kw.value) @arg.kw

; assertions
(assert_statement) @assert

; values
(string) @str
(string_content) @str.text
(escape_sequence) @str.esc
(interpolation expression: (_) @str.interp)
(concatenated_string (string) @concat.part) @concat
(binary_operator left: (_) @concat.part operator: "+" right: (_) @concat.part) @concat
(parenthesized_expression) @paren
(identifier) @ident
(attribute object: (_) @member.obj attribute: (identifier) @member.prop) @member
(integer) @num
(tuple (_) @elem) @seq
(list (_) @elem) @seq

; what functions return, for calls resolved by their receiver's type (resolve.c)
(return_statement (_) @ret)
(yield (_) @ret)
(typed_parameter (identifier) @decl.name type: (type) @type) @decl
(typed_default_parameter name: (identifier) @decl.name type: (type) @type) @decl
