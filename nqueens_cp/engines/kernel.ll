; The bitmask search of nqueens_cp/engines/kernel.py (count_masks, restrict,
; class_size, turned), line for line, in LLVM's assembly language:
; i64 for every int (so n <= 62), ptr for every list.  The phi nodes at
; %loop carry row, the three tallies and nodes around the while loop.
; After it, @count_tree: the same search for whole counts, as recursion;
; then @count_lanes: many counts at once in vector lanes; last,
; @count_half_turn: the check of a count by classes (classes.py).

declare i64 @llvm.cttz.i64(i64, i1)

; The free cells of a row once the columns no later row allows are known:
; one such column still empty -> the row must take it; two -> no way on.
define internal i64 @restrict(i64 %free, i64 %needed, i64 %cols) alwaysinline {
entry:
  %not_cols = xor i64 %cols, -1
  %missing = and i64 %needed, %not_cols
  %missing_less_one = sub i64 %missing, 1
  %two_or_more = and i64 %missing, %missing_less_one
  %single = icmp eq i64 %two_or_more, 0
  %free_missing = and i64 %free, %missing
  %restricted = select i1 %single, i64 %free_missing, i64 0
  %none = icmp eq i64 %missing, 0
  %result = select i1 %none, i64 %free, i64 %restricted
  ret i64 %result
}

; Compare the board turned k quarter turns (k = 1, 2, 3) with the board, row
; by row from the top, each image row made when it is compared (the first
; row nearly always decides): -1 if the image is less, 0 if equal, 1 if
; greater.  Row r of the board is board[r * stride]; inverse[c] is the row of
; column c's queen.
define internal i64 @turned(i64 %n, ptr %board, i64 %stride, ptr %inverse, i64 %k) {
entry:
  %last = sub i64 %n, 1
  %is_quarter = icmp eq i64 %k, 1
  %is_half = icmp eq i64 %k, 2
  br label %compare

compare:                                ; for i in range(n)
  %i = phi i64 [0, %entry], [%i_next, %same]
  %comparing = icmp slt i64 %i, %n
  br i1 %comparing, label %compare_row, label %equal

compare_row:                            ; a: row i of the image; b: row i of the board
  %last_i = sub i64 %last, %i
  %mirror_at = mul i64 %last_i, %stride
  %mirror_row_at = getelementptr i64, ptr %board, i64 %mirror_at
  %mirror_row = load i64, ptr %mirror_row_at
  %mirror_c = call i64 @llvm.cttz.i64(i64 %mirror_row, i1 true)
  %half_shift = sub i64 %last, %mirror_c
  %inverse_i_at = getelementptr i64, ptr %inverse, i64 %i
  %inverse_i = load i64, ptr %inverse_i_at
  %quarter_shift = sub i64 %last, %inverse_i
  %inverse_last_i_at = getelementptr i64, ptr %inverse, i64 %last_i
  %three_shift = load i64, ptr %inverse_last_i_at
  %shift_half = select i1 %is_half, i64 %half_shift, i64 %three_shift
  %shift = select i1 %is_quarter, i64 %quarter_shift, i64 %shift_half
  %a = shl i64 1, %shift
  %board_at = mul i64 %i, %stride
  %board_i = getelementptr i64, ptr %board, i64 %board_at
  %b = load i64, ptr %board_i
  %less = icmp slt i64 %a, %b
  br i1 %less, label %is_less, label %not_less

is_less:
  ret i64 -1

not_less:
  %greater = icmp sgt i64 %a, %b
  br i1 %greater, label %is_greater, label %same

is_greater:
  ret i64 1

same:
  %i_next = add i64 %i, 1
  br label %compare

equal:
  ret i64 0
}

; 0 if a turn of the board is less than the board, else the size of its class:
; 2 (a quarter turn leaves it unchanged), 4 (a half turn does) or 8.
define internal i64 @class_size(i64 %n, ptr %board, i64 %stride, ptr %inverse) {
entry:
  br label %invert

invert:                                 ; inverse[column of row r's queen] = r
  %r = phi i64 [0, %entry], [%r_next, %invert_row]
  %inverting = icmp slt i64 %r, %n
  br i1 %inverting, label %invert_row, label %inverted

invert_row:
  %board_at = mul i64 %r, %stride
  %board_r = getelementptr i64, ptr %board, i64 %board_at
  %queen = load i64, ptr %board_r
  %c = call i64 @llvm.cttz.i64(i64 %queen, i1 true)
  %inverse_c = getelementptr i64, ptr %inverse, i64 %c
  store i64 %r, ptr %inverse_c
  %r_next = add i64 %r, 1
  br label %invert

inverted:
  %quarter = call i64 @turned(i64 %n, ptr %board, i64 %stride, ptr %inverse, i64 1)
  %quarter_less = icmp slt i64 %quarter, 0
  br i1 %quarter_less, label %not_least, label %quarter_not_less

quarter_not_less:
  %quarter_same = icmp eq i64 %quarter, 0
  br i1 %quarter_same, label %two, label %half_turn

half_turn:
  %half = call i64 @turned(i64 %n, ptr %board, i64 %stride, ptr %inverse, i64 2)
  %half_less = icmp slt i64 %half, 0
  br i1 %half_less, label %not_least, label %half_not_less

half_not_less:
  %half_same = icmp eq i64 %half, 0
  br i1 %half_same, label %four, label %three_quarter_turn

three_quarter_turn:
  %three = call i64 @turned(i64 %n, ptr %board, i64 %stride, ptr %inverse, i64 3)
  %three_less = icmp slt i64 %three, 0
  br i1 %three_less, label %not_least, label %eight

not_least:
  ret i64 0

two:
  ret i64 2

four:
  ret i64 4

eight:
  ret i64 8
}

; state[r] holds four words for row r: the columns taken above it, the
; diagonals attacking it from the left and from the right, and its cells not
; yet tried; masks[r] two: the columns allowed in row r, and those no later
; row allows.  out[0..4]: solutions of class size 8 (all solutions when not
; classifying), of size 4, of size 2, nodes, and the row to resume from (-1:
; finished).  A call adds to the tallies in out; it stops after `limit`
; solutions in all (0: no limit; board then holds the last one) or once the
; nodes reach `stop_at` (0: never); `resume` != 0 goes on from where the last
; call stopped.  Few values live in the hot loop, so that all stay in registers.
define void @count_masks(i64 %n, ptr %masks, i64 %classify, i64 %limit, i64 %stop_at, i64 %resume,
                         ptr %state, ptr %board, ptr %image, ptr %out) {
entry:
  %one_past_full = shl i64 1, %n
  %full = sub i64 %one_past_full, 1
  %last = sub i64 %n, 1
  %classifying = icmp ne i64 %classify, 0
  %limited = icmp ne i64 %limit, 0
  %keep_board = or i1 %classifying, %limited
  %budgeted = icmp ne i64 %stop_at, 0
  %never = select i1 %budgeted, i64 %stop_at, i64 -1
  %out_four = getelementptr i64, ptr %out, i64 1
  %out_two = getelementptr i64, ptr %out, i64 2
  %out_nodes = getelementptr i64, ptr %out, i64 3
  %out_row = getelementptr i64, ptr %out, i64 4
  %nodes_0 = load i64, ptr %out_nodes
  %fresh = icmp eq i64 %resume, 0
  br i1 %fresh, label %start, label %resumed

start:                                  ; row 0 from nothing
  %left_0 = getelementptr [4 x i64], ptr %state, i64 0, i64 1
  %right_0 = getelementptr [4 x i64], ptr %state, i64 0, i64 2
  %todo_0 = getelementptr [4 x i64], ptr %state, i64 0, i64 3
  store i64 0, ptr %state
  store i64 0, ptr %left_0
  store i64 0, ptr %right_0
  %needed_0_at = getelementptr [2 x i64], ptr %masks, i64 0, i64 1
  %allowed_0 = load i64, ptr %masks
  %needed_0 = load i64, ptr %needed_0_at
  %allowed_0_full = and i64 %allowed_0, %full
  %free_0 = call i64 @restrict(i64 %allowed_0_full, i64 %needed_0, i64 0)
  store i64 %free_0, ptr %todo_0
  br label %loop

resumed:                                ; row = out[4]
  %row_0 = load i64, ptr %out_row
  br label %loop

loop:                                   ; while row >= 0 and nodes < stop_at
  %row = phi i64 [0, %start], [%row_0, %resumed], [%row_up, %backtrack], [%row_at, %counted], [%row_down, %go_down], [%row, %dead_end]
  %nodes = phi i64 [%nodes_0, %start], [%nodes_0, %resumed], [%nodes, %backtrack], [%nodes_at, %counted], [%nodes_1, %go_down], [%nodes_1, %dead_end]
  %running = icmp sge i64 %row, 0
  %within = icmp ult i64 %nodes, %never
  %going = and i1 %running, %within
  br i1 %going, label %next, label %done

next:                                   ; free = todo[row]
  %todo_row = getelementptr [4 x i64], ptr %state, i64 %row, i64 3
  %free = load i64, ptr %todo_row
  %exhausted = icmp eq i64 %free, 0
  br i1 %exhausted, label %backtrack, label %place

backtrack:                              ; row -= 1
  %row_up = sub i64 %row, 1
  br label %loop

place:                                  ; bit = free & -free; todo[row] = free ^ bit
  %minus_free = sub i64 0, %free
  %bit = and i64 %free, %minus_free
  %rest = xor i64 %free, %bit
  store i64 %rest, ptr %todo_row
  %nodes_1 = add i64 %nodes, 1
  %at_last = icmp eq i64 %row, %last
  br i1 %at_last, label %solution_here, label %descend

solution_here:                          ; (only when n == 1: deeper boards stop a row above)
  br label %solution

descend:                                ; the masks of the next row
  %cols_row = getelementptr [4 x i64], ptr %state, i64 %row, i64 0
  %left_row = getelementptr [4 x i64], ptr %state, i64 %row, i64 1
  %right_row = getelementptr [4 x i64], ptr %state, i64 %row, i64 2
  %cols_above = load i64, ptr %cols_row
  %left_above = load i64, ptr %left_row
  %right_above = load i64, ptr %right_row
  %c = or i64 %cols_above, %bit
  %left_with_bit = or i64 %left_above, %bit
  %left_shifted = shl i64 %left_with_bit, 1
  %ld = and i64 %left_shifted, %full
  %right_with_bit = or i64 %right_above, %bit
  %rd = lshr i64 %right_with_bit, 1
  %row_down = add i64 %row, 1
  %cols_next = getelementptr [4 x i64], ptr %state, i64 %row_down, i64 0
  %left_next = getelementptr [4 x i64], ptr %state, i64 %row_down, i64 1
  %right_next = getelementptr [4 x i64], ptr %state, i64 %row_down, i64 2
  %todo_next = getelementptr [4 x i64], ptr %state, i64 %row_down, i64 3
  %allowed_next = getelementptr [2 x i64], ptr %masks, i64 %row_down, i64 0
  %needed_next = getelementptr [2 x i64], ptr %masks, i64 %row_down, i64 1
  store i64 %c, ptr %cols_next
  store i64 %ld, ptr %left_next
  store i64 %rd, ptr %right_next
  %attacked_cl = or i64 %c, %ld
  %attacked = or i64 %attacked_cl, %rd
  %open = xor i64 %attacked, -1
  %allowed_row = load i64, ptr %allowed_next
  %open_allowed = and i64 %open, %allowed_row
  %free_open = and i64 %open_allowed, %full
  %needed_row = load i64, ptr %needed_next
  %free_next = call i64 @restrict(i64 %free_open, i64 %needed_row, i64 %c)
  %next_is_last = icmp eq i64 %row_down, %last
  br i1 %next_is_last, label %at_last_row, label %go_down

go_down:                                ; row += 1; todo[row] = free_next
  store i64 %free_next, ptr %todo_next
  br label %loop

at_last_row:                            ; the last row at once: its one free cell, if any, is a solution
  %last_free = icmp ne i64 %free_next, 0
  br i1 %last_free, label %last_row, label %dead_end

dead_end:
  br label %loop

last_row:
  %nodes_2 = add i64 %nodes_1, 1
  br label %solution

solution:                               ; the board is read off the columns only when needed
  %row_at = phi i64 [%row, %solution_here], [%row, %last_row]
  %nodes_at = phi i64 [%nodes_1, %solution_here], [%nodes_2, %last_row]
  %leaf = phi i64 [%bit, %solution_here], [%free_next, %last_row]
  br i1 %keep_board, label %fill, label %counted

fill:                                   ; board[r] = cols[r + 1] & ~cols[r] for r < last
  %r = phi i64 [0, %solution], [%r_next, %fill_row]
  %filling = icmp slt i64 %r, %last
  br i1 %filling, label %fill_row, label %filled

fill_row:
  %r_next = add i64 %r, 1
  %cols_r_at = getelementptr [4 x i64], ptr %state, i64 %r, i64 0
  %cols_below_at = getelementptr [4 x i64], ptr %state, i64 %r_next, i64 0
  %cols_r = load i64, ptr %cols_r_at
  %cols_below = load i64, ptr %cols_below_at
  %not_cols_r = xor i64 %cols_r, -1
  %queen = and i64 %cols_below, %not_cols_r
  %board_r = getelementptr i64, ptr %board, i64 %r
  store i64 %queen, ptr %board_r
  br label %fill

filled:                                 ; board[last] = leaf; size = class_size(...) if classify else 8
  %board_last = getelementptr i64, ptr %board, i64 %last
  store i64 %leaf, ptr %board_last
  br i1 %classifying, label %classify_it, label %counted

classify_it:
  %measured = call i64 @class_size(i64 %n, ptr %board, i64 1, ptr %image)
  br label %counted

counted:                                ; the tally of its size goes up by one
  %size = phi i64 [8, %solution], [8, %filled], [%measured, %classify_it]
  %is_eight = icmp eq i64 %size, 8
  %is_four = icmp eq i64 %size, 4
  %is_two = icmp eq i64 %size, 2
  %add_eight = zext i1 %is_eight to i64
  %add_four = zext i1 %is_four to i64
  %add_two = zext i1 %is_two to i64
  %eight = load i64, ptr %out
  %four = load i64, ptr %out_four
  %two = load i64, ptr %out_two
  %eight_1 = add i64 %eight, %add_eight
  %four_1 = add i64 %four, %add_four
  %two_1 = add i64 %two, %add_two
  store i64 %eight_1, ptr %out
  store i64 %four_1, ptr %out_four
  store i64 %two_1, ptr %out_two
  %found_84 = add i64 %eight_1, %four_1
  %found = add i64 %found_84, %two_1
  %enough = icmp uge i64 %found, %limit
  %stop = and i1 %limited, %enough
  br i1 %stop, label %done, label %loop

done:                                   ; out: nodes and where to resume
  %row_out = phi i64 [%row, %loop], [%row_at, %counted]
  %nodes_out = phi i64 [%nodes, %loop], [%nodes_at, %counted]
  store i64 %nodes_out, ptr %out_nodes
  store i64 %row_out, ptr %out_row
  ret void
}

; ---------------------------------------------------------------------------
; Counting: the search of @count_masks without stops, written as recursion,
; which keeps a row's words in registers (a call per row, not loads and
; stores per node): far faster (benchmarks/README.md).  Same solutions, same tallies,
; same nodes.  records: four words per row, [allowed, needed, queen, -]; the
; search writes each row's queen into its record as it places it.  (The
; fourth word is read in the last row only: its tie square.)

declare i64 @llvm.ctpop.i64(i64)

; What every level reads: the last row's record, out, the inverse scratch
; of @class_size, n, the records; and where the levels add up the cells they
; place (the nodes, with one more per solution) and the solutions with the
; last queen on the last record's tie square.  (Whether to classify is not
; here: each copy of the row loop knows it.)
%Context = type { ptr, ptr, ptr, i64, ptr, i64, i64 }

; A solution on the records (their third words are its board): classify it, tally it.
; (Kept out of line: inlined, its vector code would make every level of the
; recursion save vector registers.)
define internal void @classify_leaf(ptr %ctx) noinline cold {
entry:
  %out_at = getelementptr %Context, ptr %ctx, i32 0, i32 1
  %inverse_at = getelementptr %Context, ptr %ctx, i32 0, i32 2
  %n_at = getelementptr %Context, ptr %ctx, i32 0, i32 3
  %records_at = getelementptr %Context, ptr %ctx, i32 0, i32 4
  %out = load ptr, ptr %out_at
  %inverse = load ptr, ptr %inverse_at
  %n = load i64, ptr %n_at
  %records = load ptr, ptr %records_at
  %board = getelementptr i64, ptr %records, i64 2
  br label %copied

copied:                                 ; out[0], out[1], out[2] count classes of 8, 4, 2
  %size = call i64 @class_size(i64 %n, ptr %board, i64 4, ptr %inverse)
  %least = icmp ne i64 %size, 0
  br i1 %least, label %tally, label %not_least

tally:
  %is_four = icmp eq i64 %size, 4
  %is_two = icmp eq i64 %size, 2
  %index_42 = select i1 %is_four, i64 1, i64 0
  %index = select i1 %is_two, i64 2, i64 %index_42
  %tally_at = getelementptr i64, ptr %out, i64 %index
  %tally_was = load i64, ptr %tally_at
  %tally_now = add i64 %tally_was, 1
  store i64 %tally_now, ptr %tally_at
  ret void

not_least:
  ret void
}

; The row before the last, with its free cells: each that leaves the last row
; a cell is a solution.  Returns the solutions.  With n-2 columns taken above,
; this row has at most two cells, x and y: both are tried without a loop.
; (The last row's needed word is 0: the rule cannot change it, see
; needed_masks.)
define internal i64 @leaves(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %ctx, i1 %classifying) alwaysinline {
entry:
  %end = load ptr, ptr %ctx
  %allowed = load i64, ptr %end
  %tie_at = getelementptr i64, ptr %end, i64 3
  %tie = load i64, ptr %tie_at
  call void @place(ptr %ctx, i64 %free)
  %minus_f = sub i64 0, %free
  %bit_x = and i64 %free, %minus_f
  %bit_y = xor i64 %free, %bit_x
  %leaf_x = call i64 @last_cell(i64 %cols, i64 %left, i64 %right, i64 %bit_x, i64 %allowed)
  %leaf_y = call i64 @last_cell(i64 %cols, i64 %left, i64 %right, i64 %bit_y, i64 %allowed)
  %has_x = icmp ne i64 %bit_x, 0
  %has_y = icmp ne i64 %bit_y, 0
  %open_x = icmp ne i64 %leaf_x, 0
  %open_y = icmp ne i64 %leaf_y, 0
  %solved_x = and i1 %has_x, %open_x
  %solved_y = and i1 %has_y, %open_y
  %sx = zext i1 %solved_x to i64
  %sy = zext i1 %solved_y to i64
  %found = add i64 %sx, %sy
  br i1 %classifying, label %classify_x, label %ties

ties:                                   ; solutions with the last queen on the tie square
  %tie_x = and i64 %leaf_x, %tie
  %tie_y = and i64 %leaf_y, %tie
  %on_tie_x = icmp ne i64 %tie_x, 0
  %on_tie_y = icmp ne i64 %tie_y, 0
  %tied_x = and i1 %solved_x, %on_tie_x
  %tied_y = and i1 %solved_y, %on_tie_y
  %tx = zext i1 %tied_x to i64
  %ty = zext i1 %tied_y to i64
  %tied = add i64 %tx, %ty
  %any_tied = icmp ne i64 %tied, 0
  br i1 %any_tied, label %add_tied, label %exit

add_tied:
  %tied_at = getelementptr %Context, ptr %ctx, i32 0, i32 6
  %tied_was = load i64, ptr %tied_at
  %tied_now = add i64 %tied_was, %tied
  store i64 %tied_now, ptr %tied_at
  br label %exit

classify_x:
  br i1 %solved_x, label %do_x, label %classify_y
do_x:
  call void @classify_pair(ptr %ctx, i64 %bit_x, i64 %leaf_x)
  br label %classify_y
classify_y:
  br i1 %solved_y, label %do_y, label %exit
do_y:
  call void @classify_pair(ptr %ctx, i64 %bit_y, i64 %leaf_y)
  br label %exit

exit:
  ret i64 %found
}

; The last row's free cells once the row above has its queen on bit (0: none).
define internal i64 @last_cell(i64 %cols, i64 %left, i64 %right, i64 %bit, i64 %allowed) alwaysinline {
entry:
  %c = or i64 %cols, %bit
  %left_with_bit = or i64 %left, %bit
  %ld = shl i64 %left_with_bit, 1
  %right_with_bit = or i64 %right, %bit
  %rd = lshr i64 %right_with_bit, 1
  %attacked_cl = or i64 %c, %ld
  %attacked = or i64 %attacked_cl, %rd
  %open = xor i64 %attacked, -1
  %leaf = and i64 %open, %allowed
  ret i64 %leaf
}

; A solution whose last two queens are bit and leaf: onto the records, classified.
define internal void @classify_pair(ptr %ctx, i64 %bit, i64 %leaf) {
entry:
  %end = load ptr, ptr %ctx
  %end_queen = getelementptr i64, ptr %end, i64 2
  %here_queen = getelementptr [4 x i64], ptr %end, i64 -1, i64 2
  store i64 %bit, ptr %here_queen
  store i64 %leaf, ptr %end_queen
  call void @classify_leaf(ptr %ctx)
  ret void
}

; ctx's node count += the cells of a row about to be placed.
define internal void @place(ptr %ctx, i64 %free) alwaysinline {
entry:
  %placed_at = getelementptr %Context, ptr %ctx, i32 0, i32 5
  %cells = call i64 @llvm.ctpop.i64(i64 %free)
  %placed = load i64, ptr %placed_at
  %placed_now = add i64 %placed, %cells
  store i64 %placed_now, ptr %placed_at
  ret void
}

; A row above the one before the last, with its free cells (next: the
; record of the row below; %restricting_here: whether its needed word is not
; 0).  Returns the solutions below.
define internal i64 @rows(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx, i1 %classifying, i1 %restricting_here) alwaysinline {
entry:
  %end = load ptr, ptr %ctx
  %needed_at = getelementptr i64, ptr %next, i64 1
  %allowed = load i64, ptr %next
  %needed = load i64, ptr %needed_at
  %unrestricted = xor i1 %restricting_here, true
  %deeper_needed_at = getelementptr [4 x i64], ptr %next, i64 1, i64 1
  %deeper_needed = load i64, ptr %deeper_needed_at
  %deeper_restricting = icmp ne i64 %deeper_needed, 0
  %here_queen = getelementptr [4 x i64], ptr %next, i64 -1, i64 2
  %deeper = getelementptr [4 x i64], ptr %next, i64 1
  %next_before_last = icmp eq ptr %deeper, %end
  call void @place(ptr %ctx, i64 %free)
  br label %loop

loop:
  %f = phi i64 [%free, %entry], [%rest, %placed], [%rest, %below]
  %found = phi i64 [0, %entry], [%found, %placed], [%found_below, %below]
  %exhausted = icmp eq i64 %f, 0
  br i1 %exhausted, label %exit, label %body

body:
  %minus_f = sub i64 0, %f
  %bit = and i64 %f, %minus_f
  %rest = xor i64 %f, %bit
  %c = or i64 %cols, %bit
  %left_with_bit = or i64 %left, %bit
  %ld = shl i64 %left_with_bit, 1
  %right_with_bit = or i64 %right, %bit
  %rd = lshr i64 %right_with_bit, 1
  %attacked_cl = or i64 %c, %ld
  %attacked = or i64 %attacked_cl, %rd
  %open = xor i64 %attacked, -1
  %open_allowed = and i64 %open, %allowed
  br i1 %unrestricted, label %restricted, label %restricting

restricting:
  %open_needed = call i64 @restrict(i64 %open_allowed, i64 %needed, i64 %c)
  br label %restricted

restricted:
  %free_next = phi i64 [%open_allowed, %body], [%open_needed, %restricting]
  %dead_end = icmp eq i64 %free_next, 0
  br i1 %dead_end, label %placed, label %descend

placed:
  br label %loop

descend:
  br i1 %classifying, label %record, label %recorded

record:                                 ; (only classifying needs the board)
  store i64 %bit, ptr %here_queen
  br label %recorded

recorded:
  br i1 %next_before_last, label %two_rows, label %more_rows

two_rows:
  %from_leaves = call i64 @leaves(i64 %c, i64 %ld, i64 %rd, i64 %free_next, ptr %ctx, i1 %classifying)
  br label %below

more_rows:
  br i1 %classifying, label %more_rows_classes, label %more_rows_plain

more_rows_classes:
  br i1 %deeper_restricting, label %classes_r, label %classes_f
classes_r:
  %from_rows_classes_r = call i64 @rows_classes_r(i64 %c, i64 %ld, i64 %rd, i64 %free_next, ptr %deeper, ptr %ctx)
  br label %below
classes_f:
  %from_rows_classes_f = call i64 @rows_classes(i64 %c, i64 %ld, i64 %rd, i64 %free_next, ptr %deeper, ptr %ctx)
  br label %below

more_rows_plain:
  br i1 %deeper_restricting, label %plain_r, label %plain_f
plain_r:
  %from_rows_plain_r = call i64 @rows_plain_r(i64 %c, i64 %ld, i64 %rd, i64 %free_next, ptr %deeper, ptr %ctx)
  br label %below
plain_f:
  %from_rows_plain_f = call i64 @rows_plain(i64 %c, i64 %ld, i64 %rd, i64 %free_next, ptr %deeper, ptr %ctx)
  br label %below

below:
  %sub = phi i64 [%from_leaves, %two_rows], [%from_rows_classes_r, %classes_r], [%from_rows_classes_f, %classes_f], [%from_rows_plain_r, %plain_r], [%from_rows_plain_f, %plain_f]
  %found_below = add i64 %found, %sub
  br label %loop

exit:
  ret i64 %found
}

; @rows made four times, with and without classifying, with and without the
; needed rule (the caller picks by the row's needed word), each calling the
; others: the tests of %classifying and %restricting_here go out of the
; loops, and with them the registers they need (each measured faster).
; The _r copies apply the rule.
define internal i64 @rows_plain(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx) {
entry:
  %result = call i64 @rows(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx, i1 false, i1 false)
  ret i64 %result
}

define internal i64 @rows_plain_r(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx) {
entry:
  %result = call i64 @rows(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx, i1 false, i1 true)
  ret i64 %result
}

define internal i64 @rows_classes(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx) {
entry:
  %result = call i64 @rows(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx, i1 true, i1 false)
  ret i64 %result
}

define internal i64 @rows_classes_r(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx) {
entry:
  %result = call i64 @rows(i64 %cols, i64 %left, i64 %right, i64 %free, ptr %next, ptr %ctx, i1 true, i1 true)
  ret i64 %result
}



; Count a sub-board of n >= 3 rows (records as above, allowed within the n
; columns; the last record's fourth word a tie square or 0): out as for
; @count_masks, classifying, out[0..2] get the classes; not classifying,
; out[5] = the solutions with the last queen on the tie square.
define void @count_tree(i64 %n, ptr %records, i64 %classify, ptr %inverse, ptr %out) {
entry:
  %ctx = alloca %Context
  %last = sub i64 %n, 1
  %end = getelementptr [4 x i64], ptr %records, i64 %last
  %out_at = getelementptr %Context, ptr %ctx, i32 0, i32 1
  %inverse_at = getelementptr %Context, ptr %ctx, i32 0, i32 2
  %n_at = getelementptr %Context, ptr %ctx, i32 0, i32 3
  %records_at = getelementptr %Context, ptr %ctx, i32 0, i32 4
  %placed_at = getelementptr %Context, ptr %ctx, i32 0, i32 5
  %tied_at = getelementptr %Context, ptr %ctx, i32 0, i32 6
  store ptr %end, ptr %ctx
  store ptr %out, ptr %out_at
  store ptr %inverse, ptr %inverse_at
  store i64 %n, ptr %n_at
  store ptr %records, ptr %records_at
  store i64 0, ptr %placed_at
  store i64 0, ptr %tied_at
  %needed_0_at = getelementptr i64, ptr %records, i64 1
  %allowed_0 = load i64, ptr %records
  %needed_0 = load i64, ptr %needed_0_at
  %free_0 = call i64 @restrict(i64 %allowed_0, i64 %needed_0, i64 0)
  %next = getelementptr [4 x i64], ptr %records, i64 1
  %classifying = icmp ne i64 %classify, 0
  br i1 %classifying, label %by_classes, label %plain

by_classes:
  %found_classes = call i64 @rows_classes_r(i64 0, i64 0, i64 0, i64 %free_0, ptr %next, ptr %ctx)
  br label %counted

plain:
  %found_plain = call i64 @rows_plain_r(i64 0, i64 0, i64 0, i64 %free_0, ptr %next, ptr %ctx)
  br label %counted

counted:                                ; out[0] += solutions unless classified; out[3] += nodes
  %found = phi i64 [%found_classes, %by_classes], [%found_plain, %plain]
  %found_eight = select i1 %classifying, i64 0, i64 %found
  %eight = load i64, ptr %out
  %eight_1 = add i64 %eight, %found_eight
  store i64 %eight_1, ptr %out
  %placed = load i64, ptr %placed_at
  %nodes = add i64 %placed, %found
  %out_nodes = getelementptr i64, ptr %out, i64 3
  %nodes_was = load i64, ptr %out_nodes
  %nodes_now = add i64 %nodes_was, %nodes
  store i64 %nodes_now, ptr %out_nodes
  %out_row = getelementptr i64, ptr %out, i64 4
  store i64 -1, ptr %out_row
  %tied = load i64, ptr %tied_at
  %out_tied = getelementptr i64, ptr %out, i64 5
  store i64 %tied, ptr %out_tied
  ret void
}



; ---------------------------------------------------------------------------
; @count_lanes: many sub-boards at once (plain, or each solution classified
; by its turns), one in each lane of four-word vectors.  The same search as
; @count_tree, made without branches: each step every lane either tries the
; next cell of its row (and goes down when the row below has a free cell),
; or, its row exhausted, goes back up; selects pick the lane's next state,
; so a lane's choices never mispredict a branch.  A lane whose board is done
; takes the next board (the plain loop's only branch, taken once a board; a
; solution to classify is the classifying loop's other).  Each lane keeps a stack
; of its rows, [cols, left, right, cells not yet tried], in %stack.
;
; boards: %count boards, %n + 2 words each: row r's word allowed[r] |
; needed[r] << 32 (so n <= 32), a 0 word, the tie square.  %classify != 0:
; each solution is compared with its turns, as @count_tree does.  Adds to
; out[0] the solutions (not classifying), out[1] those with the last queen
; on their board's tie square, out[2] the nodes (counted as @count_tree
; counts them), out[3..5] the classes of size 8, 4 and 2 (classifying).
; 3 <= n <= 32.

declare i64 @llvm.vector.reduce.add.v4i64(<4 x i64>)

; @restrict lane by lane.
define internal <4 x i64> @restrict_lanes(<4 x i64> %free, <4 x i64> %needed, <4 x i64> %cols) alwaysinline {
entry:
  %not_cols = xor <4 x i64> %cols, splat (i64 -1)
  %missing = and <4 x i64> %needed, %not_cols
  %missing_less_one = sub <4 x i64> %missing, splat (i64 1)
  %two_or_more = and <4 x i64> %missing, %missing_less_one
  %single = icmp eq <4 x i64> %two_or_more, zeroinitializer
  %free_missing = and <4 x i64> %free, %missing
  %restricted = select <4 x i1> %single, <4 x i64> %free_missing, <4 x i64> zeroinitializer
  %none = icmp eq <4 x i64> %missing, zeroinitializer
  %result = select <4 x i1> %none, <4 x i64> %free, <4 x i64> %restricted
  ret <4 x i64> %result
}

; Lane k's stack slot for row d (slot d + 1: row -1 has slot 0, never read
; as a state), and the packed word of its board's row d + 1.
define internal ptr @slot(ptr %stack, i64 %k, <4 x i64> %d, i64 %offset) alwaysinline {
entry:
  %dk = extractelement <4 x i64> %d, i64 %k
  %s = add i64 %dk, %offset
  %at = getelementptr [32 x <4 x i64>], ptr %stack, i64 %k, i64 %s
  ret ptr %at
}

define internal i64 @row_below(<4 x i64> %base, <4 x i64> %d, i64 %k) alwaysinline {
entry:
  %bk = extractelement <4 x i64> %base, i64 %k
  %board = inttoptr i64 %bk to ptr
  %dk = extractelement <4 x i64> %d, i64 %k
  %below = add i64 %dk, 1
  %at = getelementptr i64, ptr %board, i64 %below
  %word = load i64, ptr %at
  ret i64 %word
}

define void @count_lanes(i64 %n, ptr %boards, i64 %count, i64 %classify, ptr %out) {
entry:
  %classifying = icmp ne i64 %classify, 0
  br i1 %classifying, label %by_classes, label %plain

by_classes:                             ; two copies of the loop, each without the other's test
  call void @lanes(i64 %n, ptr %boards, i64 %count, ptr %out, i1 true)
  ret void

plain:
  call void @lanes(i64 %n, ptr %boards, i64 %count, ptr %out, i1 false)
  ret void
}

define internal void @lanes(i64 %n, ptr %boards, i64 %count, ptr %out, i1 %classifying) alwaysinline {
entry:
  %stack = alloca [4 x [32 x <4 x i64>]], align 32
  ; the lanes' state while boards are handed out: cols, left, right, free,
  ; d, board, tie, active, solutions, tied, nodes (a row of four words each)
  %lanes = alloca [11 x <4 x i64>], align 32
  %next_at = alloca i64
  %stride = add i64 %n, 2
  %leaf = sub i64 %n, 2
  %leaf_insert = insertelement <4 x i64> poison, i64 %leaf, i64 0
  %leaf_row = shufflevector <4 x i64> %leaf_insert, <4 x i64> poison, <4 x i32> zeroinitializer
  store i64 0, ptr %next_at
  store [11 x <4 x i64>] zeroinitializer, ptr %lanes
  %d_at = getelementptr [11 x <4 x i64>], ptr %lanes, i64 0, i64 4
  store <4 x i64> splat (i64 -1), ptr %d_at                  ; every lane wants a board
  %none = icmp eq i64 %count, 0
  br i1 %none, label %done_empty, label %hand_out

done_empty:
  ret void

hand_out:                               ; lane k done (d < 0): its next board, or idle
  %k = phi i64 [0, %entry], [0, %spill], [%k_next, %handed]
  %d_k_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 4, i64 %k
  %d_k = load i64, ptr %d_k_at
  %done_k = icmp slt i64 %d_k, 0
  br i1 %done_k, label %take, label %handed

take:
  %next = load i64, ptr %next_at
  %more = icmp ult i64 %next, %count
  %words_before = mul i64 %next, %stride
  %board = getelementptr i64, ptr %boards, i64 %words_before
  %board_or_first = select i1 %more, ptr %board, ptr %boards  ; (an idle lane reads board 0)
  %word_0 = load i64, ptr %board_or_first
  %allowed_0 = and i64 %word_0, 4294967295
  %needed_0 = lshr i64 %word_0, 32
  %free_0 = call i64 @restrict(i64 %allowed_0, i64 %needed_0, i64 0)
  %free_k = select i1 %more, i64 %free_0, i64 0
  %tie_index = add i64 %n, 1
  %tie_at = getelementptr i64, ptr %board_or_first, i64 %tie_index
  %tie_word = load i64, ptr %tie_at
  %tie_k = select i1 %more, i64 %tie_word, i64 0
  %next_1 = add i64 %next, 1
  %next_kept = select i1 %more, i64 %next_1, i64 %next
  store i64 %next_kept, ptr %next_at
  %active_k = sext i1 %more to i64
  %board_word = ptrtoint ptr %board_or_first to i64
  call void @set_lane(ptr %lanes, i64 %k, i64 %free_k, i64 %board_word, i64 %tie_k, i64 %active_k)
  br label %handed

handed:
  %k_next = add i64 %k, 1
  %all_lanes = icmp eq i64 %k_next, 4
  br i1 %all_lanes, label %fill, label %hand_out

fill:                                   ; the lanes' state back into vectors
  %c_0 = call <4 x i64> @lane_row(ptr %lanes, i64 0)
  %l_0 = call <4 x i64> @lane_row(ptr %lanes, i64 1)
  %r_0 = call <4 x i64> @lane_row(ptr %lanes, i64 2)
  %f_0 = call <4 x i64> @lane_row(ptr %lanes, i64 3)
  %d_0 = call <4 x i64> @lane_row(ptr %lanes, i64 4)
  %base_0 = call <4 x i64> @lane_row(ptr %lanes, i64 5)
  %tie_0 = call <4 x i64> @lane_row(ptr %lanes, i64 6)
  %active_v = call <4 x i64> @lane_row(ptr %lanes, i64 7)
  %found_0 = call <4 x i64> @lane_row(ptr %lanes, i64 8)
  %tied_0 = call <4 x i64> @lane_row(ptr %lanes, i64 9)
  %nodes_0 = call <4 x i64> @lane_row(ptr %lanes, i64 10)
  %active = icmp ne <4 x i64> %active_v, zeroinitializer
  %active_bits = bitcast <4 x i1> %active to i4
  %any_active = icmp ne i4 %active_bits, 0
  br i1 %any_active, label %step, label %done

step:
  %c = phi <4 x i64> [%c_0, %fill], [%c_next, %moved]
  %l = phi <4 x i64> [%l_0, %fill], [%l_next, %moved]
  %r = phi <4 x i64> [%r_0, %fill], [%r_next, %moved]
  %f = phi <4 x i64> [%f_0, %fill], [%f_next, %moved]
  %d = phi <4 x i64> [%d_0, %fill], [%d_next, %moved]
  %found = phi <4 x i64> [%found_0, %fill], [%found_next, %moved]
  %tied = phi <4 x i64> [%tied_0, %fill], [%tied_next, %moved]
  %nodes = phi <4 x i64> [%nodes_0, %fill], [%nodes_next, %moved]
  ; the next cell of each lane's row, and the row below with a queen there
  %minus_f = sub <4 x i64> zeroinitializer, %f
  %bit = and <4 x i64> %f, %minus_f
  %rest = xor <4 x i64> %f, %bit
  %c_bit = or <4 x i64> %c, %bit
  %l_bit = or <4 x i64> %l, %bit
  %l_down = shl <4 x i64> %l_bit, splat (i64 1)
  %r_bit = or <4 x i64> %r, %bit
  %r_down = lshr <4 x i64> %r_bit, splat (i64 1)
  %w0 = call i64 @row_below(<4 x i64> %base_0, <4 x i64> %d, i64 0)
  %w1 = call i64 @row_below(<4 x i64> %base_0, <4 x i64> %d, i64 1)
  %w2 = call i64 @row_below(<4 x i64> %base_0, <4 x i64> %d, i64 2)
  %w3 = call i64 @row_below(<4 x i64> %base_0, <4 x i64> %d, i64 3)
  %word_a = insertelement <4 x i64> poison, i64 %w0, i64 0
  %word_b = insertelement <4 x i64> %word_a, i64 %w1, i64 1
  %word_c = insertelement <4 x i64> %word_b, i64 %w2, i64 2
  %word = insertelement <4 x i64> %word_c, i64 %w3, i64 3
  %allowed = and <4 x i64> %word, splat (i64 4294967295)
  %needed = lshr <4 x i64> %word, splat (i64 32)
  %attacked_cl = or <4 x i64> %c_bit, %l_down
  %attacked = or <4 x i64> %attacked_cl, %r_down
  %open = xor <4 x i64> %attacked, splat (i64 -1)
  %open_allowed = and <4 x i64> %open, %allowed
  %free_below = call <4 x i64> @restrict_lanes(<4 x i64> %open_allowed, <4 x i64> %needed, <4 x i64> %c_bit)
  ; this row, with the cell taken off, onto each lane's stack; the row above
  ; off it (read for the lanes that go back)
  %cl_even = shufflevector <4 x i64> %c, <4 x i64> %l, <4 x i32> <i32 0, i32 4, i32 2, i32 6>
  %cl_odd = shufflevector <4 x i64> %c, <4 x i64> %l, <4 x i32> <i32 1, i32 5, i32 3, i32 7>
  %rf_even = shufflevector <4 x i64> %r, <4 x i64> %rest, <4 x i32> <i32 0, i32 4, i32 2, i32 6>
  %rf_odd = shufflevector <4 x i64> %r, <4 x i64> %rest, <4 x i32> <i32 1, i32 5, i32 3, i32 7>
  %row_0 = shufflevector <4 x i64> %cl_even, <4 x i64> %rf_even, <4 x i32> <i32 0, i32 1, i32 4, i32 5>
  %row_1 = shufflevector <4 x i64> %cl_odd, <4 x i64> %rf_odd, <4 x i32> <i32 0, i32 1, i32 4, i32 5>
  %row_2 = shufflevector <4 x i64> %cl_even, <4 x i64> %rf_even, <4 x i32> <i32 2, i32 3, i32 6, i32 7>
  %row_3 = shufflevector <4 x i64> %cl_odd, <4 x i64> %rf_odd, <4 x i32> <i32 2, i32 3, i32 6, i32 7>
  %here_0 = call ptr @slot(ptr %stack, i64 0, <4 x i64> %d, i64 1)
  %here_1 = call ptr @slot(ptr %stack, i64 1, <4 x i64> %d, i64 1)
  %here_2 = call ptr @slot(ptr %stack, i64 2, <4 x i64> %d, i64 1)
  %here_3 = call ptr @slot(ptr %stack, i64 3, <4 x i64> %d, i64 1)
  store <4 x i64> %row_0, ptr %here_0, align 32
  store <4 x i64> %row_1, ptr %here_1, align 32
  store <4 x i64> %row_2, ptr %here_2, align 32
  store <4 x i64> %row_3, ptr %here_3, align 32
  %above_0 = call ptr @slot(ptr %stack, i64 0, <4 x i64> %d, i64 0)
  %above_1 = call ptr @slot(ptr %stack, i64 1, <4 x i64> %d, i64 0)
  %above_2 = call ptr @slot(ptr %stack, i64 2, <4 x i64> %d, i64 0)
  %above_3 = call ptr @slot(ptr %stack, i64 3, <4 x i64> %d, i64 0)
  %up_0 = load <4 x i64>, ptr %above_0, align 32
  %up_1 = load <4 x i64>, ptr %above_1, align 32
  %up_2 = load <4 x i64>, ptr %above_2, align 32
  %up_3 = load <4 x i64>, ptr %above_3, align 32
  %cl_02 = shufflevector <4 x i64> %up_0, <4 x i64> %up_2, <4 x i32> <i32 0, i32 1, i32 4, i32 5>
  %cl_13 = shufflevector <4 x i64> %up_1, <4 x i64> %up_3, <4 x i32> <i32 0, i32 1, i32 4, i32 5>
  %rf_02 = shufflevector <4 x i64> %up_0, <4 x i64> %up_2, <4 x i32> <i32 2, i32 3, i32 6, i32 7>
  %rf_13 = shufflevector <4 x i64> %up_1, <4 x i64> %up_3, <4 x i32> <i32 2, i32 3, i32 6, i32 7>
  %c_up = shufflevector <4 x i64> %cl_02, <4 x i64> %cl_13, <4 x i32> <i32 0, i32 4, i32 2, i32 6>
  %l_up = shufflevector <4 x i64> %cl_02, <4 x i64> %cl_13, <4 x i32> <i32 1, i32 5, i32 3, i32 7>
  %r_up = shufflevector <4 x i64> %rf_02, <4 x i64> %rf_13, <4 x i32> <i32 0, i32 4, i32 2, i32 6>
  %f_up = shufflevector <4 x i64> %rf_02, <4 x i64> %rf_13, <4 x i32> <i32 1, i32 5, i32 3, i32 7>
  ; each lane's move: down (a cell, and one free below, above the last two
  ; rows), back up (its row exhausted), or on along its row
  %has = icmp ne <4 x i64> %f, zeroinitializer
  %open_below = icmp ne <4 x i64> %free_below, zeroinitializer
  %at_leaf = icmp eq <4 x i64> %d, %leaf_row
  %placed = and <4 x i1> %has, %open_below
  %solved = and <4 x i1> %placed, %at_leaf
  %above_leaf = xor <4 x i1> %at_leaf, splat (i1 true)
  %down = and <4 x i1> %placed, %above_leaf
  %exhausted = xor <4 x i1> %has, splat (i1 true)
  %up = and <4 x i1> %exhausted, %active
  %on_tie_cells = and <4 x i64> %free_below, %tie_0
  %on_tie = icmp ne <4 x i64> %on_tie_cells, zeroinitializer
  %solved_on_tie = and <4 x i1> %solved, %on_tie
  %tried = zext <4 x i1> %has to <4 x i64>                  ; nodes: cells tried, and each solution's last queen
  %one_solved = zext <4 x i1> %solved to <4 x i64>
  %nodes_tried = add <4 x i64> %nodes, %tried
  %nodes_next = add <4 x i64> %nodes_tried, %one_solved
  %found_solved = select i1 %classifying, <4 x i1> zeroinitializer, <4 x i1> %solved
  %one_found = zext <4 x i1> %found_solved to <4 x i64>
  %found_next = add <4 x i64> %found, %one_found
  %one_tied = zext <4 x i1> %solved_on_tie to <4 x i64>
  %tied_next = add <4 x i64> %tied, %one_tied
  %c_stay = select <4 x i1> %up, <4 x i64> %c_up, <4 x i64> %c
  %c_next = select <4 x i1> %down, <4 x i64> %c_bit, <4 x i64> %c_stay
  %l_stay = select <4 x i1> %up, <4 x i64> %l_up, <4 x i64> %l
  %l_next = select <4 x i1> %down, <4 x i64> %l_down, <4 x i64> %l_stay
  %r_stay = select <4 x i1> %up, <4 x i64> %r_up, <4 x i64> %r
  %r_next = select <4 x i1> %down, <4 x i64> %r_down, <4 x i64> %r_stay
  %f_stay = select <4 x i1> %up, <4 x i64> %f_up, <4 x i64> %rest
  %f_next = select <4 x i1> %down, <4 x i64> %free_below, <4 x i64> %f_stay
  %one_down = zext <4 x i1> %down to <4 x i64>
  %one_up = zext <4 x i1> %up to <4 x i64>
  %d_down = add <4 x i64> %d, %one_down
  %d_next = sub <4 x i64> %d_down, %one_up
  %at_top = icmp eq <4 x i64> %d, zeroinitializer
  %finished = and <4 x i1> %up, %at_top                     ; d_next = -1: its board is done
  %finished_bits = bitcast <4 x i1> %finished to i4
  %any_finished = icmp ne i4 %finished_bits, 0
  %classify_bits = bitcast <4 x i1> %solved to i4
  %any_solved = icmp ne i4 %classify_bits, 0
  %any_classify = and i1 %classifying, %any_solved
  br i1 %any_classify, label %classify, label %moved, !prof !0

classify:                               ; solutions of boards classified: their boards off the stacks
  call void @classify_lanes(i64 %n, ptr %stack, <4 x i64> %d, <4 x i64> %bit, <4 x i64> %free_below, i4 %classify_bits, ptr %out)
  br label %moved

moved:
  br i1 %any_finished, label %spill, label %step, !prof !0

spill:                                  ; the vectors into %lanes, to hand out boards
  call void @set_row(ptr %lanes, i64 0, <4 x i64> %c_next)
  call void @set_row(ptr %lanes, i64 1, <4 x i64> %l_next)
  call void @set_row(ptr %lanes, i64 2, <4 x i64> %r_next)
  call void @set_row(ptr %lanes, i64 3, <4 x i64> %f_next)
  call void @set_row(ptr %lanes, i64 4, <4 x i64> %d_next)
  call void @set_row(ptr %lanes, i64 8, <4 x i64> %found_next)
  call void @set_row(ptr %lanes, i64 9, <4 x i64> %tied_next)
  call void @set_row(ptr %lanes, i64 10, <4 x i64> %nodes_next)
  br label %hand_out

done:
  %found_sum = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> %found_0)
  %tied_sum = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> %tied_0)
  %nodes_sum = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> %nodes_0)
  %out_tied = getelementptr i64, ptr %out, i64 1
  %out_nodes = getelementptr i64, ptr %out, i64 2
  %found_was = load i64, ptr %out
  %tied_was = load i64, ptr %out_tied
  %nodes_was = load i64, ptr %out_nodes
  %found_now = add i64 %found_was, %found_sum
  %tied_now = add i64 %tied_was, %tied_sum
  %nodes_now = add i64 %nodes_was, %nodes_sum
  store i64 %found_now, ptr %out
  store i64 %tied_now, ptr %out_tied
  store i64 %nodes_now, ptr %out_nodes
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 100000}

; Lane k starts a board: row 0 with its free cells, nothing placed.
define internal void @set_lane(ptr %lanes, i64 %k, i64 %free, i64 %board, i64 %tie, i64 %active) alwaysinline {
entry:
  %c_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 0, i64 %k
  %l_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 1, i64 %k
  %r_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 2, i64 %k
  %f_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 3, i64 %k
  %d_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 4, i64 %k
  %board_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 5, i64 %k
  %tie_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 6, i64 %k
  %active_at = getelementptr [11 x [4 x i64]], ptr %lanes, i64 0, i64 7, i64 %k
  store i64 0, ptr %c_at
  store i64 0, ptr %l_at
  store i64 0, ptr %r_at
  store i64 %free, ptr %f_at
  store i64 0, ptr %d_at
  store i64 %board, ptr %board_at
  store i64 %tie, ptr %tie_at
  store i64 %active, ptr %active_at
  ret void
}

define internal <4 x i64> @lane_row(ptr %lanes, i64 %i) alwaysinline {
entry:
  %at = getelementptr [11 x <4 x i64>], ptr %lanes, i64 0, i64 %i
  %row = load <4 x i64>, ptr %at, align 32
  ret <4 x i64> %row
}

define internal void @set_row(ptr %lanes, i64 %i, <4 x i64> %row) alwaysinline {
entry:
  %at = getelementptr [11 x <4 x i64>], ptr %lanes, i64 0, i64 %i
  store <4 x i64> %row, ptr %at, align 32
  ret void
}

; The lanes in %which have a solution of a board to classify: row j's queen
; is the column the stack's row j + 1 takes that row j does not (rows above
; d), the cell just tried (row d = n - 2) and the last row's one free cell.
; out[3..5] count the boards that are the least of their class, by size.
define internal void @classify_lanes(i64 %n, ptr %stack, <4 x i64> %d, <4 x i64> %bit, <4 x i64> %leaf, i4 %which, ptr %out) noinline cold {
entry:
  %board = alloca [32 x i64]
  %inverse = alloca [32 x i64]
  %which_word = zext i4 %which to i64
  %last = sub i64 %n, 1
  br label %lane

lane:
  %k = phi i64 [0, %entry], [%k_next, %lane_done]
  %which_k = lshr i64 %which_word, %k
  %this_one = and i64 %which_k, 1
  %classify_this = icmp ne i64 %this_one, 0
  br i1 %classify_this, label %rows, label %lane_done

rows:
  %d_k = extractelement <4 x i64> %d, i64 %k
  br label %row

row:                                    ; board[j] = cols below row j ^ cols above it
  %j = phi i64 [0, %rows], [%j_next, %row_body]
  %more_rows = icmp slt i64 %j, %d_k
  br i1 %more_rows, label %row_body, label %board_made

row_body:
  %slot_above = add i64 %j, 1
  %slot_below = add i64 %j, 2
  %above_at = getelementptr [32 x <4 x i64>], ptr %stack, i64 %k, i64 %slot_above
  %below_at = getelementptr [32 x <4 x i64>], ptr %stack, i64 %k, i64 %slot_below
  %cols_above = load i64, ptr %above_at
  %cols_below = load i64, ptr %below_at
  %queen = xor i64 %cols_above, %cols_below
  %board_j = getelementptr i64, ptr %board, i64 %j
  store i64 %queen, ptr %board_j
  %j_next = add i64 %j, 1
  br label %row

board_made:
  %bit_k = extractelement <4 x i64> %bit, i64 %k
  %leaf_k = extractelement <4 x i64> %leaf, i64 %k
  %board_d = getelementptr i64, ptr %board, i64 %d_k
  store i64 %bit_k, ptr %board_d
  %board_last = getelementptr i64, ptr %board, i64 %last
  store i64 %leaf_k, ptr %board_last
  %size = call i64 @class_size(i64 %n, ptr %board, i64 1, ptr %inverse)
  %least = icmp ne i64 %size, 0
  br i1 %least, label %tally, label %lane_done

tally:                                  ; out[3], out[4], out[5]: classes of 8, 4, 2
  %is_four = icmp eq i64 %size, 4
  %is_two = icmp eq i64 %size, 2
  %index_42 = select i1 %is_four, i64 4, i64 3
  %index = select i1 %is_two, i64 5, i64 %index_42
  %tally_at = getelementptr i64, ptr %out, i64 %index
  %tally_was = load i64, ptr %tally_at
  %tally_now = add i64 %tally_was, 1
  store i64 %tally_now, ptr %tally_at
  br label %lane_done

lane_done:
  %k_next = add i64 %k, 1
  %all_lanes = icmp eq i64 %k_next, 4
  br i1 %all_lanes, label %classified, label %lane

classified:
  ret void
}


; ---------------------------------------------------------------------------
; @count_half_turn: the solutions a half turn leaves unchanged (q[n-1-r] =
; n-1-q[r]), the check of a count by classes (classes.py): rows 0 .. m-1
; placed with their images in rows n-1 .. n-m.  Columns, diagonals (index
; c - r + n - 1) and anti-diagonals (r + c) are masks over absolute indices
; (2n - 1 of them: n <= 32), since the images attack the rows above them too;
; each holds an index and its image's together.  masks[r]: the columns row
; r may take (its image's square allowed, not on the two long diagonals,
; where a queen and its image would attack each other).
define i64 @count_half_turn(i64 %n, ptr %masks, i64 %m, i64 %cols, i64 %diag, i64 %anti) {
entry:
  %count = call i64 @half_turn_rows(i64 %n, ptr %masks, i64 %m, i64 0, i64 %cols, i64 %diag, i64 %anti)
  ret i64 %count
}

define internal i64 @half_turn_rows(i64 %n, ptr %masks, i64 %m, i64 %r, i64 %cols, i64 %diag, i64 %anti) {
entry:
  %all_placed = icmp eq i64 %r, %m
  br i1 %all_placed, label %one, label %row

one:
  ret i64 1

row:
  %last = sub i64 %n, 1
  %mask_at = getelementptr i64, ptr %masks, i64 %r
  %mask = load i64, ptr %mask_at
  %diag_shift = sub i64 %last, %r
  %diag_here = lshr i64 %diag, %diag_shift
  %anti_here = lshr i64 %anti, %r
  %attacked_cd = or i64 %cols, %diag_here
  %attacked = or i64 %attacked_cd, %anti_here
  %open = xor i64 %attacked, -1
  %free = and i64 %mask, %open
  %r_next = add i64 %r, 1
  %ends = add i64 %last, %last                   ; 2n - 2: an index's image is ends - index
  br label %loop

loop:
  %f = phi i64 [%free, %row], [%rest, %body]
  %found = phi i64 [0, %row], [%found_next, %body]
  %exhausted = icmp eq i64 %f, 0
  br i1 %exhausted, label %exit, label %body

body:
  %minus_f = sub i64 0, %f
  %bit = and i64 %f, %minus_f
  %rest = xor i64 %f, %bit
  %c = call i64 @llvm.cttz.i64(i64 %bit, i1 true)
  %c_image = sub i64 %last, %c
  %bit_image = shl i64 1, %c_image
  %cols_1 = or i64 %cols, %bit
  %cols_2 = or i64 %cols_1, %bit_image
  %d_partial = sub i64 %c, %r
  %d = add i64 %d_partial, %last
  %d_image = sub i64 %ends, %d
  %d_bit = shl i64 1, %d
  %d_image_bit = shl i64 1, %d_image
  %diag_1 = or i64 %diag, %d_bit
  %diag_2 = or i64 %diag_1, %d_image_bit
  %a = add i64 %r, %c
  %a_image = sub i64 %ends, %a
  %a_bit = shl i64 1, %a
  %a_image_bit = shl i64 1, %a_image
  %anti_1 = or i64 %anti, %a_bit
  %anti_2 = or i64 %anti_1, %a_image_bit
  %below = call i64 @half_turn_rows(i64 %n, ptr %masks, i64 %m, i64 %r_next, i64 %cols_2, i64 %diag_2, i64 %anti_2)
  %found_next = add i64 %found, %below
  br label %loop

exit:
  ret i64 %found
}
