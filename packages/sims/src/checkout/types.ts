/** A Checkout session as Stripe's API returns it (the fields the app reads). */
export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_method_types: string[];
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  line_items_description: string;
}

/** The form body the stripe SDK sends to create a session, parsed by `parseStripeForm`. */
export interface SessionForm {
  mode?: string;
  success_url?: string;
  cancel_url?: string;
  client_reference_id?: string;
  customer_email?: string;
  metadata?: Record<string, string>;
  payment_method_types?: Record<string, string>;
  line_items?: Record<
    string,
    {
      quantity?: string;
      price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } };
    }
  >;
}
