// flitsim RTL harness: the packet source of one terminal, driven by the packet list
// (rtl_tb.pk_*). It sends the packets of its terminal in list order, one flit per
// cycle at most, each packet on the VC its record names, from the cycle its record
// names on. Flow control uses the router's own credit tracking (rtr_fc_state): a
// head needs its VC eligible (not held by an unfinished packet; with elig_mask FULL
// also not full), every flit a credit. Data bits 16-31 carry the source, 32-55 the
// packet's number at its source, 56-63 the flit index; the head's first bits carry
// the lookahead route (output port at the first router) and the destination address.
`default_nettype none

module trace_source (clk, reset, channel, flow_ctrl);

`include "c_functions.v"
`include "c_constants.v"
`include "rtr_constants.v"

   parameter terminal = 0;
   parameter num_routers_per_dim = 3;
   parameter num_vcs = 4;
   parameter buffer_size = 64;
   parameter elig_mask = `ELIG_MASK_FULL;

   localparam vc_idx_width = clogb(num_vcs);
   localparam dim_addr_width = clogb(num_routers_per_dim);
   localparam router_addr_width = 2 * dim_addr_width;
   localparam port_idx_width = clogb(5);
   localparam flit_data_width = 64;
   localparam flow_ctrl_width = 1 + vc_idx_width;
   localparam channel_width = 1 + (1 + vc_idx_width + 2) + flit_data_width;

   input clk;
   input reset;
   output [0:channel_width-1] channel;
   wire [0:channel_width-1] channel;
   input [0:flow_ctrl_width-1] flow_ctrl;

   // the packet being sent and the index of the next record to look at
   reg 	      cur_valid;
   reg [31:0] cur_cycle;
   reg [15:0] cur_dst;
   reg [7:0]  cur_len;
   reg [7:0]  cur_vc;
   reg [23:0] cur_seq;
   reg [7:0]  flit_idx;
   integer    next;

   task load_next;
      begin
	 while(next < rtl_tb.num_packets && rtl_tb.pk_src[next] != terminal)
	   next = next + 1;
	 cur_valid = (next < rtl_tb.num_packets);
	 if(cur_valid)
	   begin
	      cur_cycle = rtl_tb.pk_cycle[next];
	      cur_dst = rtl_tb.pk_dst[next];
	      cur_len = rtl_tb.pk_len[next];
	      cur_vc = rtl_tb.pk_vc[next];
	      cur_seq = rtl_tb.pk_seq[next];
	      next = next + 1;
	   end
	 flit_idx = 0;
      end
   endtask

   initial
     begin
	next = 0;
	cur_valid = 1'b0;
	#2 load_next;
     end

   wire flit_head = (flit_idx == 0);
   wire flit_tail = (flit_idx == cur_len - 1);
   wire [0:num_vcs-1] sel_ovc = {1'b1, {(num_vcs-1){1'b0}}} >> cur_vc;

   // lookahead route at the first router: dimension 0 first, then dimension 1
   localparam x = terminal % num_routers_per_dim;
   localparam y = terminal / num_routers_per_dim;
   wire [15:0] dx = cur_dst % num_routers_per_dim;
   wire [15:0] dy = cur_dst / num_routers_per_dim;
   wire [0:port_idx_width-1] route_port
     = (dx < x) ? 0 : (dx > x) ? 1 : (dy < y) ? 2 : (dy > y) ? 3 : 4;

   wire [0:flit_data_width-1] flit_data;
   assign flit_data[0:port_idx_width-1] = flit_head ? route_port : {port_idx_width{1'b0}};
   assign flit_data[port_idx_width:port_idx_width+dim_addr_width-1]
     = flit_head ? dx[dim_addr_width-1:0] : {dim_addr_width{1'b0}};
   assign flit_data[port_idx_width+dim_addr_width:port_idx_width+router_addr_width-1]
     = flit_head ? dy[dim_addr_width-1:0] : {dim_addr_width{1'b0}};
   assign flit_data[port_idx_width+router_addr_width:15] = 0;
   assign flit_data[16:31] = terminal;
   assign flit_data[32:55] = cur_seq;
   assign flit_data[56:63] = flit_idx;

   wire 	      fc_event_valid;
   wire [0:num_vcs-1] fc_event_sel_ovc;
   rtr_flow_ctrl_input
     #(.num_vcs(num_vcs),
       .flow_ctrl_type(`FLOW_CTRL_TYPE_CREDIT),
       .reset_type(`RESET_TYPE_ASYNC))
   fci
     (.clk(clk),
      .reset(reset),
      .active(1'b1),
      .flow_ctrl_in(flow_ctrl),
      .fc_event_valid_out(fc_event_valid),
      .fc_event_sel_out_ovc(fc_event_sel_ovc));

   reg 		      flit_valid_q, flit_head_q, flit_tail_q;
   reg [0:num_vcs-1]  flit_sel_ovc_q;
   wire [0:num_vcs-1] empty_ovc, almost_full_ovc, full_ovc, full_prev_ovc;
   rtr_fc_state
     #(.num_vcs(num_vcs),
       .buffer_size(buffer_size),
       .flow_ctrl_type(`FLOW_CTRL_TYPE_CREDIT),
       .flow_ctrl_bypass(0),
       .mgmt_type(`FB_MGMT_TYPE_STATIC),
       .disable_static_reservations(0),
       .reset_type(`RESET_TYPE_ASYNC))
   fcs
     (.clk(clk),
      .reset(reset),
      .active(1'b1),
      .flit_valid(flit_valid_q),
      .flit_head(flit_head_q),
      .flit_tail(flit_tail_q),
      .flit_sel_ovc(flit_sel_ovc_q),
      .fc_event_valid(fc_event_valid),
      .fc_event_sel_ovc(fc_event_sel_ovc),
      .fc_active(),
      .empty_ovc(empty_ovc),
      .almost_full_ovc(almost_full_ovc),
      .full_ovc(full_ovc),
      .full_prev_ovc(full_prev_ovc),
      .errors_ovc());

   // a VC is held from its packet's head to its tail (as seen one cycle later)
   reg [0:num_vcs-1]  allocated_q;
   wire [0:num_vcs-1] allocated
     = flit_valid_q ? ((allocated_q & ~flit_sel_ovc_q) |
		       (flit_sel_ovc_q & {num_vcs{~flit_tail_q}})) : allocated_q;
   wire [0:num_vcs-1] elig_ovc
     = (elig_mask == `ELIG_MASK_NONE) ? ~allocated :
       (elig_mask == `ELIG_MASK_FULL) ? ~allocated & ~full_ovc :
       ~allocated & empty_ovc;

   wire pending = cur_valid && (cur_cycle <= rtl_tb.cyc);
   wire full = |(full_ovc & sel_ovc);
   wire elig = |(elig_ovc & sel_ovc);
   wire flit_valid = pending & ~full & (elig | ~flit_head);

   always @(posedge clk, posedge reset)
     if(reset)
       begin
	  flit_valid_q <= 1'b0;
	  flit_head_q <= 1'b0;
	  flit_tail_q <= 1'b0;
	  flit_sel_ovc_q <= {num_vcs{1'b0}};
	  allocated_q <= {num_vcs{1'b0}};
       end
     else
       begin
	  flit_valid_q <= flit_valid;
	  flit_head_q <= flit_head;
	  flit_tail_q <= flit_tail;
	  flit_sel_ovc_q <= sel_ovc;
	  allocated_q <= allocated;
       end

   // advance after the channel register has taken this cycle's flit
   always @(posedge clk)
     if(!reset && flit_valid)
       begin
	  #1;
	  if(flit_idx == cur_len - 1)
	    load_next;
	  else
	    flit_idx = flit_idx + 1;
       end

   rtr_channel_output
     #(.num_vcs(num_vcs),
       .packet_format(`PACKET_FORMAT_HEAD_TAIL),
       .enable_link_pm(1),
       .flit_data_width(flit_data_width),
       .reset_type(`RESET_TYPE_ASYNC))
   cho
     (.clk(clk),
      .reset(reset),
      .active(flit_valid),
      .flit_valid_in(flit_valid),
      .flit_head_in(flit_head),
      .flit_tail_in(flit_tail),
      .flit_data_in(flit_data),
      .flit_sel_in_ovc(sel_ovc),
      .channel_out(channel));

endmodule
